import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';
import { resolveMcpRedisOptions } from '../../src/redis/mcp-redis.options.js';
import { RedisTaskStore } from '../../src/redis/redis-task.store.js';
import type { McpTaskRecord, McpTaskStatus } from '../../src/task-store/mcp-task-record.js';
import { McpTaskQuotaExceededException } from '../../src/task-store/task-quota-exceeded.exception.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { BUDGET, budgetModule, expectBudgetRefusal, KEEP } from '../tasks/task-byte-budget.fixtures.js';
import { call, pollUntil, result, TASKS, WITH_ELICITATION } from '../tasks/tasks-wire.js';

// limits.maxStoredTaskBytesPerCaller with the Redis task store, on one real redis-server started
// for this suite: first the store itself, two "nodes" being two connections (the count is one per
// caller over every node, checked and written in one Lua script), then two app nodes sharing it
// over HTTP on both adapters.

let redis: RedisServer;
let raw: Redis;
const connections: McpRedisConnection[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
});
afterAll(async () => {
  raw?.disconnect();
  for (const connection of connections) await connection.onApplicationShutdown();
  await redis?.stop();
});

/** Two stores on two connections with a fresh key prefix, and the prefix. */
async function nodes(): Promise<[RedisTaskStore, RedisTaskStore, string]> {
  const keyPrefix = `budget-${prefixes++}:`;
  const open = async () => {
    const connection = new McpRedisConnection(resolveMcpRedisOptions({ connection: redis.url, keyPrefix }));
    await connection.ready();
    connections.push(connection);
    return new RedisTaskStore(connection);
  };
  return [await open(), await open(), keyPrefix];
}

let ids = 0;
function task(caller: string, status: McpTaskStatus = 'working', ttlMs = 60_000): McpTaskRecord {
  const at = new Date().toISOString();
  return {
    taskId: `t-${String(ids++).padStart(4, '0')}`,
    owner: null,
    caller,
    status,
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs,
    pollIntervalMs: 250,
    expiresAt: Date.now() + ttlMs,
    tool: 'keep',
    arguments: KEEP,
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
  };
}

const QUOTA = { maxRunning: 100, maxStored: 100, maxStoredBytes: BUDGET };
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** What the caller's tasks really take in Redis: the lengths of their two values. */
async function storedBytes(prefix: string, taskIds: readonly string[]): Promise<number> {
  let sum = 0;
  for (const id of taskIds)
    sum += (await raw.strlen(`${prefix}task:${id}`)) + (await raw.strlen(`${prefix}task-args:${id}`));
  return sum;
}

const counted = async (prefix: string, caller: string) =>
  Number(await raw.hget(`${prefix}task-bytes:${caller}`, 'total'));

describe('RedisTaskStore byte budget', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('lets exactly what fits of 20 concurrent creates of one caller through, across two nodes; its count is what Redis holds', async () => {
    const [a, b, prefix] = await nodes();
    const records = Array.from({ length: 20 }, () => task('address:x'));
    const outcomes = await Promise.all(records.map((record, i) => outcome((i % 2 ? a : b).create(record, QUOTA))));
    const created = records.filter((_, i) => outcomes[i] === undefined).map((record) => record.taskId);
    expect(created).toHaveLength(4);
    for (const error of outcomes.filter((o) => o !== undefined)) {
      expect(error).toBeInstanceOf(McpTaskQuotaExceededException);
      expect(error).toMatchObject({
        code: -32050,
        httpStatus: 429,
        httpHeaders: { 'retry-after': '1' },
        data: { retryAfterMs: 250, limit: 'maxStoredTaskBytesPerCaller' },
      });
    }
    const bytes = await storedBytes(prefix, created);
    expect(await counted(prefix, 'address:x')).toBe(bytes);
    expect(bytes).toBeLessThanOrEqual(BUDGET);
    await expect(a.create(task('address:y'), QUOTA)).resolves.toBeUndefined();
  });

  it('counts every update, refuses one that grows a task past the budget (nothing written), never one that does not grow it', async () => {
    const [a, b, prefix] = await nodes();
    const records = Array.from({ length: 3 }, () => task('principal:p'));
    for (const record of records) await a.create(record, QUOTA);
    const ids3 = records.map((record) => record.taskId);
    const [first, second, third] = ids3 as [string, string, string];
    const big = { content: [{ type: 'text', text: 'y'.repeat(20_000) }] };
    const refused = await outcome(b.update(first, (r) => ({ ...r, status: 'completed', result: big }), QUOTA));
    expect(refused).toMatchObject({ httpStatus: 429, data: { limit: 'maxStoredTaskBytesPerCaller' } });
    expect((await a.get(first))?.status).toBe('working');
    expect(await counted(prefix, 'principal:p')).toBe(await storedBytes(prefix, ids3));

    const small = { content: [{ type: 'text', text: 'y'.repeat(5000) }] };
    await b.update(first, (r) => ({ ...r, status: 'completed', result: small }), QUOTA);
    expect(await counted(prefix, 'principal:p')).toBe(await storedBytes(prefix, ids3));
    // Without a quota a write is taken whatever its size, and counted; past the budget, a change
    // that grows a task is refused, one that shrinks it taken.
    await a.update(second, (r) => ({ ...r, statusMessage: 'z'.repeat(15_000) }));
    expect(await counted(prefix, 'principal:p')).toBeGreaterThan(BUDGET);
    expect(await outcome(a.update(third, (r) => ({ ...r, statusMessage: 'more' }), QUOTA))).toMatchObject({
      data: { limit: 'maxStoredTaskBytesPerCaller' },
    });
    await expect(b.update(second, (r) => ({ ...r, statusMessage: 'short' }), QUOTA)).resolves.toMatchObject({
      statusMessage: 'short',
    });
    expect(await counted(prefix, 'principal:p')).toBe(await storedBytes(prefix, ids3));
  });

  it('lets concurrent growing updates of one caller on two nodes take the budget and never more', async () => {
    const [a, b, prefix] = await nodes();
    const records = Array.from({ length: 3 }, () => task('principal:q'));
    for (const record of records) await a.create(record, QUOTA);
    // What is left fits one of these results and not two.
    const left = BUDGET - (await counted(prefix, 'principal:q'));
    const result = { content: [{ type: 'text', text: 'y'.repeat(Math.floor(left * 0.6)) }] };
    const outcomes = await Promise.all(
      records.map((record, i) =>
        outcome((i % 2 ? a : b).update(record.taskId, (r) => ({ ...r, status: 'completed', result }), QUOTA)),
      ),
    );
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
    const total = await counted(prefix, 'principal:q');
    expect(total).toBe(
      await storedBytes(
        prefix,
        records.map((record) => record.taskId),
      ),
    );
    expect(total).toBeLessThanOrEqual(BUDGET);
  });

  it('frees the bytes of expired tasks (Retry-After says when the oldest finished one goes)', async () => {
    const [a, , prefix] = await nodes();
    await a.create(task('address:e', 'completed', 2000), QUOTA);
    for (let i = 0; i < 3; i++) await a.create(task('address:e'), QUOTA);
    const refused = await outcome(a.create(task('address:e'), QUOTA));
    expect(refused).toMatchObject({ httpStatus: 429, data: { limit: 'maxStoredTaskBytesPerCaller' } });
    const retryAfterMs = (refused as McpTaskQuotaExceededException).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(2000);
    const before = await counted(prefix, 'address:e');
    // The caller's sets and its bytes expire together: a set gone first would strand its tasks' bytes.
    const ttls = await Promise.all(
      ['live', 'done', 'bytes'].map((kind) => raw.pttl(`${prefix}task-${kind}:address:e`)),
    );
    expect(Math.min(...ttls)).toBeGreaterThan(50_000);
    expect(Math.max(...ttls) - Math.min(...ttls)).toBeLessThan(100);
    await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 50));
    const next = task('address:e');
    await expect(a.create(next, QUOTA)).resolves.toBeUndefined();
    // One task of the same size went, one came.
    expect(Math.abs((await counted(prefix, 'address:e')) - before)).toBeLessThan(50);
  });

  it('counts no bytes of a task created before bytes were counted (it has none recorded), and keeps its updates working', async () => {
    const [a, , prefix] = await nodes();
    const old = task('address:old');
    const { arguments: args, ...status } = old;
    await raw.set(`${prefix}task:${old.taskId}`, JSON.stringify(status), 'PX', 60_000);
    await raw.set(`${prefix}task-args:${old.taskId}`, JSON.stringify(args), 'PX', 60_000);
    await raw.zadd(`${prefix}task-live:address:old`, old.expiresAt, old.taskId);
    const updated = await a.update(old.taskId, (r) => ({ ...r, statusMessage: 'z'.repeat(60_000) }), QUOTA);
    expect(updated?.statusMessage).toHaveLength(60_000);
    expect(await raw.hget(`${prefix}task-bytes:address:old`, 'total')).toBeNull();
  });
});

function startTask(url: string, tool: string, args: Record<string, unknown>, user: string, capabilities = TASKS) {
  return call(url, 'tools/call', { name: tool, arguments: args }, { user, capabilities });
}

describe.each(ADAPTERS)('the per-caller byte budget on two nodes sharing Redis, on %s', (adapter) => {
  const logger = new CapturingLogger();
  let nodeA: RunningApp;
  let nodeB: RunningApp;
  beforeAll(async () => {
    const shared = { url: redis.url, keyPrefix: `budget-${adapter}:` };
    nodeA = await startMrtrApp(budgetModule({ ttlMs: 60_000 }, shared), adapter, { logger });
    nodeB = await startMrtrApp(budgetModule({ ttlMs: 60_000 }, shared), adapter, { logger });
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
  });
  afterEach(() => expect(logger.errors).toEqual([]));

  /** `count` tasks of `keep` as `user`, on alternate nodes, each completed. */
  async function fill(user: string, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const node = i % 2 ? nodeB : nodeA;
      const created = result(await startTask(node.url, 'keep', KEEP, user));
      await pollUntil(node.url, created.taskId, (t) => t.status === 'completed', user);
    }
  }

  it('one caller fills its budget across both nodes; its next task on either is refused (429); another caller is served', async () => {
    await fill('carol', 4);
    expectBudgetRefusal(await startTask(nodeA.url, 'keep', KEEP, 'carol'), 60);
    expectBudgetRefusal(await startTask(nodeB.url, 'keep', KEEP, 'carol'), 60);
    expect(await counted(`budget-${adapter}:`, 'principal:app:carol')).toBeLessThanOrEqual(BUDGET);
    expect(result(await startTask(nodeB.url, 'keep', KEEP, 'bob')).resultType).toBe('task');
  });

  it('lets concurrent creates of one caller on both nodes take the budget and never more', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => startTask((i % 2 ? nodeA : nodeB).url, 'keep', KEEP, 'dora')),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    for (const answer of answers.filter((a) => a.status !== 200)) expectBudgetRefusal(answer, 60);
    expect(await counted(`budget-${adapter}:`, 'principal:app:dora')).toBeLessThanOrEqual(BUDGET);
  });

  it('fails a task whose result would pass the budget instead of keeping it; answers past it are refused (429)', async () => {
    await fill('erin', 3);
    const created = result(await startTask(nodeA.url, 'big_result', { bytes: 30_000 }, 'erin'));
    const failed = await pollUntil(nodeB.url, created.taskId, (t) => t.status !== 'working', 'erin');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, data: { limit: 'maxStoredTaskBytesPerCaller', maxBytes: BUDGET } },
    });
    expect(await counted(`budget-${adapter}:`, 'principal:app:erin')).toBeLessThanOrEqual(BUDGET);

    const asking = result(await startTask(nodeB.url, 'ask', {}, 'erin', WITH_ELICITATION));
    const waiting = await pollUntil(nodeA.url, asking.taskId, (t) => t.status === 'input_required', 'erin');
    const [key] = Object.keys(waiting.inputRequests);
    const answer = (note: string) =>
      call(
        nodeA.url,
        'tasks/update',
        { taskId: asking.taskId, inputResponses: { [key!]: { action: 'accept', content: { note } } } },
        { user: 'erin', capabilities: WITH_ELICITATION },
      );
    expectBudgetRefusal(await answer('n'.repeat(20_000)), 60);
    expect(result(await answer('short')).resultType).toBe('complete');
    const done = await pollUntil(nodeB.url, asking.taskId, (t) => t.status === 'completed', 'erin');
    expect(done.result.content[0].text).toBe('noted 5');
  });
});
