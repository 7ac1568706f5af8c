import { Logger } from '@nestjs/common';
import { Cluster, Redis } from 'ioredis';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';
import { resolveMcpRedisOptions } from '../../src/redis/mcp-redis.options.js';
import { McpUnavailableException } from '../../src/redis/mcp-unavailable.exception.js';
import { RedisAuthorizationStore } from '../../src/redis/redis-authorization.store.js';
import { RedisTaskStore } from '../../src/redis/redis-task.store.js';
import { RedisThrottlerStorage } from '../../src/redis/redis-throttler-storage.js';
import type { McpTaskRecord, McpTaskStatus } from '../../src/task-store/mcp-task-record.js';
import { McpTaskQuotaExceededException } from '../../src/task-store/task-quota-exceeded.exception.js';
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

// The stores of @mocapi/nestjs/redis on a real Redis Cluster (three masters, three replicas), two
// "nodes" being two connections, each an ioredis Cluster given as `client`: the keys a script uses
// together share a hash tag, the per-caller bounds of the task store still hold under concurrency
// (the caller's count and the task are two slots there), and what the single Redis keeps is kept.

let cluster: RedisCluster;
let single: RedisServer;
let raw: Cluster;
const clients: Array<Cluster | Redis> = [];
const connections: McpRedisConnection[] = [];
let prefixes = 0;

beforeAll(async () => {
  Logger.overrideLogger(false);
  [cluster, single] = await Promise.all([startRedisCluster(), startRedis()]);
  raw = new Cluster([...cluster.seeds]);
});
afterAll(async () => {
  for (const connection of connections) await connection.onApplicationShutdown();
  for (const client of [raw, ...clients]) client?.disconnect();
  await Promise.all([cluster?.stop(), single?.stop()]);
});

async function connect(keyPrefix: string): Promise<McpRedisConnection> {
  const client = new Cluster([...cluster.seeds]);
  clients.push(client);
  const connection = new McpRedisConnection(resolveMcpRedisOptions({ client, keyPrefix }));
  await connection.ready();
  connections.push(connection);
  return connection;
}

/** Two task stores on two connections with a fresh key prefix, and the prefix. */
async function taskNodes(): Promise<[RedisTaskStore, RedisTaskStore, string]> {
  const keyPrefix = `cl-${prefixes++}:`;
  return [new RedisTaskStore(await connect(keyPrefix)), new RedisTaskStore(await connect(keyPrefix)), keyPrefix];
}

let ids = 0;
function task(caller: string, status: McpTaskStatus = 'working', blob = 'x'.repeat(10_000)): McpTaskRecord {
  const at = new Date().toISOString();
  return {
    taskId: `t-${String(ids++).padStart(4, '0')}`,
    owner: null,
    caller,
    status,
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: 60_000,
    pollIntervalMs: 250,
    expiresAt: Date.now() + 60_000,
    tool: 'keep',
    arguments: { blob },
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
  };
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** What the tasks really take in Redis (the lengths of their two values), and what the caller's hash counts. */
const storedBytes = async (prefix: string, taskIds: readonly string[]) => {
  let sum = 0;
  for (const id of taskIds)
    sum += (await raw.strlen(`${prefix}task:{${id}}`)) + (await raw.strlen(`${prefix}task-args:{${id}}`));
  return sum;
};
const counted = async (prefix: string, caller: string) =>
  Number(await raw.hget(`${prefix}task-bytes:{${caller}}`, 'total'));

describe('the task store on a Redis Cluster', () => {
  it('keeps a task under its own hash tag and its caller under another: tasks spread over the masters', async () => {
    const [a, b, prefix] = await taskNodes();
    const records = Array.from({ length: 12 }, () => task('address:spread'));
    for (const record of records)
      await a.create(record, { maxRunning: 100, maxStored: 100, maxStoredBytes: 10_000_000 });
    const masters = new Set(await Promise.all(records.map((r) => cluster.masterOf(`${prefix}task:{${r.taskId}}`))));
    expect(masters.size).toBeGreaterThan(1);
    expect(await raw.zcard(`${prefix}task-live:{address:spread}`)).toBe(12);
    expect((await b.get(records[0]!.taskId))?.arguments).toEqual(records[0]!.arguments);
  });

  it('lets exactly maxRunning of 20 concurrent creates of one caller through, across two nodes', async () => {
    const [a, b, prefix] = await taskNodes();
    const records = Array.from({ length: 20 }, () => task('address:x'));
    const quota = { maxRunning: 4, maxStored: 100, maxStoredBytes: 10_000_000 };
    const outcomes = await Promise.all(records.map((record, i) => outcome((i % 2 ? a : b).create(record, quota))));
    const created = records.filter((_, i) => outcomes[i] === undefined).map((record) => record.taskId);
    expect(created).toHaveLength(4);
    for (const error of outcomes.filter((o) => o !== undefined)) {
      expect(error).toBeInstanceOf(McpTaskQuotaExceededException);
      expect(error).toMatchObject({ code: -32050, data: { limit: 'maxRunningTasksPerCaller' } });
    }
    // A refused task was never written, and the caller counts what Redis holds.
    for (const [i, record] of records.entries())
      expect(await a.get(record.taskId)).toEqual(outcomes[i] ? undefined : expect.anything());
    expect(await counted(prefix, 'address:x')).toBe(await storedBytes(prefix, created));
  });

  it("forgets, before refusing a create, a caller's counts of tasks a failover lost or finished without the move", async () => {
    const [a, , prefix] = await taskNodes();
    const quota = { maxRunning: 3, maxStored: 100, maxStoredBytes: 10_000_000 };
    const [lost, finished, kept] = [task('address:r'), task('address:r'), task('address:r')];
    for (const record of [lost, finished, kept]) await a.create(record, quota);
    // What a master failover can leave: one task's keys gone (not replicated), one task finished
    // whose move to the done set never ran (its node died between the two steps).
    await raw.del(`${prefix}task:{${lost.taskId}}`, `${prefix}task-args:{${lost.taskId}}`);
    const status = JSON.parse((await raw.get(`${prefix}task:{${finished.taskId}}`))!) as McpTaskRecord;
    await raw.set(`${prefix}task:{${finished.taskId}}`, JSON.stringify({ ...status, status: 'completed' }));

    // The finished one is moved at once; the gone one only once it has been gone a while (a create
    // in flight looks the same for an instant), so a fourth running task fits and a fifth does not yet.
    await a.create(task('address:r'), quota);
    await expect(a.create(task('address:r'), quota)).rejects.toMatchObject({
      code: -32050,
      data: { limit: 'maxRunningTasksPerCaller' },
    });
    await new Promise((resolve) => setTimeout(resolve, 5100));
    await a.create(task('address:r'), quota);
    expect(await raw.zrange(`${prefix}task-live:{address:r}`, 0, '-1')).not.toContain(lost.taskId);
    expect(await raw.zrange(`${prefix}task-done:{address:r}`, 0, '-1')).toContain(finished.taskId);
    expect(await raw.zrange(`${prefix}task-live:{address:r}`, 0, '-1')).toContain(kept.taskId);
  });

  it("moves a finished task to its caller's done set and counts every update, on whichever node", async () => {
    const [a, b, prefix] = await taskNodes();
    const record = task('principal:p');
    await a.create(record, { maxRunning: 10, maxStored: 10, maxStoredBytes: 10_000_000 });
    await b.update(record.taskId, (r) => ({ ...r, statusMessage: 'z'.repeat(3000) }));
    await a.update(record.taskId, (r) => ({ ...r, status: 'completed', statusMessage: 'done' }));
    expect(await raw.zcard(`${prefix}task-live:{principal:p}`)).toBe(0);
    expect(await raw.zcard(`${prefix}task-done:{principal:p}`)).toBe(1);
    expect(await counted(prefix, 'principal:p')).toBe(await storedBytes(prefix, [record.taskId]));
    expect((await b.get(record.taskId))?.status).toBe('completed');
  });

  it('lets concurrent growing updates of one caller on two nodes take the byte budget and never more', async () => {
    const [a, b, prefix] = await taskNodes();
    const budget = 50_000;
    const quota = { maxRunning: 100, maxStored: 100, maxStoredBytes: budget };
    const records = Array.from({ length: 3 }, () => task('principal:q'));
    for (const record of records) await a.create(record, quota);
    const left = budget - (await counted(prefix, 'principal:q'));
    const result = { content: [{ type: 'text' as const, text: 'y'.repeat(Math.floor(left * 0.6)) }] };
    const outcomes = await Promise.all(
      records.map((record, i) =>
        outcome((i % 2 ? a : b).update(record.taskId, (r) => ({ ...r, status: 'completed', result }), quota)),
      ),
    );
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
    for (const error of outcomes.filter((o) => o !== undefined)) {
      expect(error).toMatchObject({ httpStatus: 429, data: { limit: 'maxStoredTaskBytesPerCaller' } });
    }
    const total = await counted(prefix, 'principal:q');
    expect(total).toBe(
      await storedBytes(
        prefix,
        records.map((r) => r.taskId),
      ),
    );
    expect(total).toBeLessThanOrEqual(budget);
  });

  it('counts right when two nodes race to update one task (the loser takes its counted growth back)', async () => {
    const [a, b, prefix] = await taskNodes();
    const record = task('principal:race');
    await a.create(record, { maxRunning: 10, maxStored: 10, maxStoredBytes: 10_000_000 });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).update(record.taskId, (r) => ({
          ...r,
          statusMessage: `${r.statusMessage ?? ''}${'w'.repeat(100 + i)}`,
        })),
      ),
    );
    expect((await a.get(record.taskId))?.statusMessage?.length).toBe(
      Array.from({ length: 10 }, (_, i) => 100 + i).reduce((x, y) => x + y),
    );
    expect(await counted(prefix, 'principal:race')).toBe(await storedBytes(prefix, [record.taskId]));
  });
});

describe('the other stores on a Redis Cluster', () => {
  it('the authorization store writes a record, its index and its grant in their own slots, and revokes the grant', async () => {
    const keyPrefix = `auth-${prefixes++}:`;
    const [a, b] = [
      new RedisAuthorizationStore(await connect(keyPrefix)),
      new RedisAuthorizationStore(await connect(keyPrefix)),
    ];
    await a.upsert('Session', 's1', { uid: 'u1', grantId: 'g1' }, 60);
    await a.upsert('AccessToken', 'at1', { grantId: 'g1' }, 60);
    expect(await b.findByUid('Session', 'u1')).toEqual({ uid: 'u1', grantId: 'g1' });
    await b.revokeByGrantId('AccessToken', 'g1');
    expect(await a.find('AccessToken', 'at1')).toBeUndefined();
    expect(await a.find('Session', 's1')).toBeUndefined();
  });

  it('the throttler storage counts one limit over two nodes', async () => {
    const keyPrefix = `throttle-${prefixes++}:`;
    const [a, b] = [
      new RedisThrottlerStorage(await connect(keyPrefix)),
      new RedisThrottlerStorage(await connect(keyPrefix)),
    ];
    const hits = [];
    for (let i = 0; i < 6; i++) hits.push(await (i % 2 ? a : b).increment('caller', 60_000, 4, 60_000, 'default'));
    expect(hits.map((h) => h.isBlocked)).toEqual([false, false, false, false, true, true]);
    expect(hits[3]!.totalHits).toBe(4);
  });
});

describe('McpRedisConnection', () => {
  it('answers 503 for the error replies of a cluster in transition, and rethrows any other error reply', async () => {
    const connection = new McpRedisConnection(resolveMcpRedisOptions({ connection: single.url, keyPrefix: 'x:' }));
    await connection.ready();
    connections.push(connection);
    for (const reply of [
      'CLUSTERDOWN The cluster is down',
      'TRYAGAIN Multiple keys request during rehashing',
      'LOADING Redis is loading',
    ]) {
      const script = `return redis.error_reply('${reply}')`;
      await expect(connection.run((r) => r.eval(script, 0))).rejects.toBeInstanceOf(McpUnavailableException);
    }
    await expect(connection.run((r) => r.eval("return redis.error_reply('ERR a bug')", 0))).rejects.toMatchObject({
      name: 'ReplyError',
      message: 'ERR a bug',
    });
    // Not an outage: the next command goes through.
    expect(await connection.run((r) => r.ping())).toBe('PONG');
  });

  it('keeps the key names of a single Redis (no hash tags): existing deployments need no migration', async () => {
    const connection = new McpRedisConnection(resolveMcpRedisOptions({ connection: single.url, keyPrefix: 'same:' }));
    await connection.ready();
    connections.push(connection);
    const store = new RedisTaskStore(connection);
    const record = task('address:old-names');
    await store.create(record, { maxRunning: 10, maxStored: 10, maxStoredBytes: 10_000_000 });
    const plain = new Redis(single.url);
    clients.push(plain);
    expect((await plain.keys('same:*')).sort()).toEqual(
      [
        `same:task:${record.taskId}`,
        `same:task-args:${record.taskId}`,
        'same:task-bytes:address:old-names',
        'same:task-live:address:old-names',
      ].sort(),
    );
  });
});
