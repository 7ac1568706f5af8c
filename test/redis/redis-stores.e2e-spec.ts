import { setTimeout as delay } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';
import { resolveMcpRedisOptions } from '../../src/redis/mcp-redis.options.js';
import { McpUnavailableException } from '../../src/redis/mcp-unavailable.exception.js';
import { RedisEventBus } from '../../src/redis/redis-event-bus.js';
import { RedisFlowStore } from '../../src/redis/redis-flow.store.js';
import { RedisTaskStore } from '../../src/redis/redis-task.store.js';
import { RedisThrottlerStorage } from '../../src/redis/redis-throttler-storage.js';
import type { McpTaskRecord } from '../../src/task-store/mcp-task-record.js';
import type { McpEventBus } from '../../src/index.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

/** The Redis stores one by one, on a real redis-server, two "nodes" being two connections. */

let redis: RedisServer;
const connections: McpRedisConnection[] = [];

async function connect(keyPrefix = 'stores:'): Promise<McpRedisConnection> {
  const config = resolveMcpRedisOptions({
    connection: redis.url,
    keyPrefix,
    commandTimeoutMs: 500,
    flowClaimTtlMs: 600,
  });
  const connection = new McpRedisConnection(config);
  await connection.ready();
  connections.push(connection);
  return connection;
}

beforeAll(async () => {
  Logger.overrideLogger(false); // dozens of "nodes" here, each logging its outage once
  redis = await startRedis();
});
afterAll(async () => {
  for (const connection of connections) await connection.onApplicationShutdown();
  await redis.stop();
});

describe('RedisFlowStore', () => {
  const config = () => resolveMcpRedisOptions({ connection: redis.url, flowClaimTtlMs: 600 });

  it('one claim runs; a claim on another node waits for it and gets the recorded result', async () => {
    const [a, b] = [new RedisFlowStore(await connect(), config()), new RedisFlowStore(await connect(), config())];
    const expiresAt = Date.now() + 60_000;
    expect(await a.claim('flow-1', expiresAt)).toEqual({ kind: 'run' });
    const waiting = b.claim('flow-1', expiresAt);
    await delay(50);
    await a.settle('flow-1', { content: [{ type: 'text', text: 'placed' }] }, expiresAt);
    expect(await waiting).toEqual({ kind: 'recorded', result: { content: [{ type: 'text', text: 'placed' }] } });
    expect(await a.claim('flow-1', expiresAt)).toMatchObject({ kind: 'recorded' });
  });

  it('a round that records nothing frees the flow for the next claim', async () => {
    const store = new RedisFlowStore(await connect(), config());
    const expiresAt = Date.now() + 60_000;
    expect(await store.claim('flow-2', expiresAt)).toEqual({ kind: 'run' });
    await store.settle('flow-2', undefined, expiresAt);
    expect(await store.claim('flow-2', expiresAt)).toEqual({ kind: 'run' });
    await store.settle('flow-2', undefined, expiresAt);
  });

  it('a claim is renewed while its round runs, and lapses once nobody renews it', async () => {
    const holder = await connect();
    const a = new RedisFlowStore(holder, config());
    const b = new RedisFlowStore(await connect(), config());
    const expiresAt = Date.now() + 60_000;
    await a.claim('flow-3', expiresAt);
    // Three claim lifetimes later, the renewed claim still holds.
    const early = await Promise.race([b.claim('flow-3', expiresAt), delay(1800, 'still waiting')]);
    expect(early).toBe('still waiting');
    await a.settle('flow-3', { ok: true }, expiresAt);

    // A holder that stops renewing (its node died) loses the claim after flowClaimTtlMs.
    await a.claim('flow-4', expiresAt);
    await holder.onApplicationShutdown();
    const started = Date.now();
    expect(await b.claim('flow-4', expiresAt)).toEqual({ kind: 'run' });
    expect(Date.now() - started).toBeLessThan(1500);
    await b.settle('flow-4', undefined, expiresAt);
  });

  it('a claim whose request gave up while Redis hung does not block the retry once Redis wakes', async () => {
    // A long claim lifetime: without the undo, the retry would wait the whole minute.
    const long = resolveMcpRedisOptions({ connection: redis.url, flowClaimTtlMs: 60_000 });
    const a = new RedisFlowStore(await connect(), long);
    const b = new RedisFlowStore(await connect(), long);
    const expiresAt = Date.now() + 120_000;
    redis.pause();
    try {
      // The claim is sent, Redis answers nothing, the request gives up after commandTimeoutMs.
      await expect(a.claim('flow-5', expiresAt)).rejects.toBeInstanceOf(McpUnavailableException);
    } finally {
      redis.resume();
    }
    // Redis works off the queued claim when it wakes: the store undoes it, so the retry runs.
    const retry = await Promise.race([b.claim('flow-5', expiresAt), delay(5000, 'still waiting')]);
    expect(retry).toEqual({ kind: 'run' });
    await b.settle('flow-5', undefined, expiresAt);
  });
});

describe('RedisThrottlerStorage', () => {
  it('counts one window for all nodes, then blocks for blockDuration', async () => {
    const [a, b] = [new RedisThrottlerStorage(await connect()), new RedisThrottlerStorage(await connect())];
    expect(await a.increment('k', 10_000, 2, 3000, 'default')).toEqual({
      totalHits: 1,
      timeToExpire: 10,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await b.increment('k', 10_000, 2, 3000, 'default')).toMatchObject({ totalHits: 2, isBlocked: false });
    expect(await a.increment('k', 10_000, 2, 3000, 'default')).toMatchObject({
      totalHits: 3,
      isBlocked: true,
      timeToBlockExpire: 3,
    });
    // Blocked hits are not counted; other throttlers and keys are apart.
    expect(await b.increment('k', 10_000, 2, 3000, 'default')).toMatchObject({ totalHits: 3, isBlocked: true });
    expect(await b.increment('k', 10_000, 2, 3000, 'burst')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await b.increment('other', 10_000, 2, 3000, 'default')).toMatchObject({ totalHits: 1 });
  });

  it('a new window starts when the old one expires', async () => {
    const storage = new RedisThrottlerStorage(await connect());
    await storage.increment('short', 300, 1, 300, 'default');
    expect(await storage.increment('short', 300, 1, 300, 'default')).toMatchObject({ isBlocked: true });
    await delay(400);
    expect(await storage.increment('short', 300, 1, 300, 'default')).toMatchObject({ totalHits: 1, isBlocked: false });
  });
});

describe('RedisEventBus', () => {
  it('delivers every event once on every node, the publisher included', async () => {
    const [a, b] = [new RedisEventBus(await connect()), new RedisEventBus(await connect())];
    const heard: Record<string, McpEventBus.Event[]> = { a: [], b: [] };
    a.subscribe((e) => heard['a']!.push(e));
    b.subscribe((e) => heard['b']!.push(e));
    await delay(100); // both subscribed on Redis
    a.publish({ kind: 'resource_updated', uri: 'test://x' });
    b.publish({ kind: 'list_changed', list: 'tools' });
    for (let i = 0; i < 40 && heard['a']!.length + heard['b']!.length < 4; i++) await delay(25);
    await delay(100);
    const expected = [
      { kind: 'resource_updated', uri: 'test://x' },
      { kind: 'list_changed', list: 'tools' },
    ];
    expect(heard['a']).toEqual(expect.arrayContaining(expected));
    expect(heard['b']).toEqual(expect.arrayContaining(expected));
    expect([heard['a']!.length, heard['b']!.length]).toEqual([2, 2]);
  });

  it('another key prefix is another server: its events stay apart', async () => {
    const [a, other] = [new RedisEventBus(await connect('one:')), new RedisEventBus(await connect('two:'))];
    const heard: McpEventBus.Event[] = [];
    other.subscribe((e) => heard.push(e));
    await delay(100);
    a.publish({ kind: 'resource_updated', uri: 'test://y' });
    await delay(200);
    expect(heard).toEqual([]);
  });
});

describe('RedisTaskStore', () => {
  const record = (taskId: string): McpTaskRecord => ({
    taskId,
    owner: 'alice',
    status: 'working',
    createdAt: new Date().toISOString(),
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: 60_000,
    pollIntervalMs: 50,
    expiresAt: Date.now() + 60_000,
    tool: 'slow_task',
    arguments: {},
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
  });

  it('a task created on one node is read on another, and expires with the task', async () => {
    const [a, b] = [new RedisTaskStore(await connect()), new RedisTaskStore(await connect())];
    await a.create(record('t-1'));
    expect(await b.get('t-1')).toMatchObject({ taskId: 't-1', owner: 'alice', status: 'working' });
    await expect(a.create(record('t-1'))).rejects.toThrow(/already exists/);
    await a.create({ ...record('t-short'), expiresAt: Date.now() + 200 });
    await delay(300);
    expect(await b.get('t-short')).toBeUndefined();
    expect(await b.update('t-short', (r) => r)).toBeUndefined();
  });

  it('concurrent updates on two nodes all apply (optimistic, retried)', async () => {
    const [a, b] = [new RedisTaskStore(await connect()), new RedisTaskStore(await connect())];
    await a.create({ ...record('t-2'), answers: {} });
    const add = (store: RedisTaskStore, key: string) =>
      store.update('t-2', (r) => ({ ...r, answers: { ...r.answers, [key]: { value: key } } }));
    await Promise.all(Array.from({ length: 20 }, (_, i) => add(i % 2 ? a : b, `k${i}`)));
    expect(Object.keys((await a.get('t-2'))!.answers!).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `k${i}`).sort(),
    );
    // A change that returns undefined leaves the task as it is.
    expect(await b.update('t-2', () => undefined)).toMatchObject({ taskId: 't-2', status: 'working' });
  });
});

describe('McpRedisConnection', () => {
  it('answers McpUnavailableException at once while Redis is down', async () => {
    const connection = await connect();
    await redis.stop();
    try {
      const started = Date.now();
      await expect(connection.run((r) => r.ping())).rejects.toBeInstanceOf(McpUnavailableException);
      await expect(connection.run((r) => r.ping())).rejects.toMatchObject({ code: -32051, httpStatus: 503 });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await redis.restart();
    }
    for (let i = 0; i < 50; i++) {
      if ((await connection.run((r) => r.ping()).catch(() => 'down')) === 'PONG') break;
      await delay(100);
    }
    expect(await connection.run((r) => r.ping())).toBe('PONG');
  });
});
