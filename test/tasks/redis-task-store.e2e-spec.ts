import { Logger } from '@nestjs/common';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import type { McpTaskRecord, McpTaskStatus } from '../../src/task-store/mcp-task-record.js';
import { McpTaskQuotaExceededException } from '../../src/task-store/task-quota-exceeded.exception.js';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';
import { resolveMcpRedisOptions } from '../../src/redis/mcp-redis.options.js';
import { RedisTaskStore } from '../../src/redis/redis-task.store.js';

// Two "nodes" are two connections (two stores) on one real redis-server.

let redis: RedisServer;
const connections: McpRedisConnection[] = [];
let prefixes = 0;

async function nodes(): Promise<[RedisTaskStore, RedisTaskStore, McpRedisConnection]> {
  const keyPrefix = `quota-${prefixes++}:`;
  const open = async () => {
    const connection = new McpRedisConnection(resolveMcpRedisOptions({ connection: redis.url, keyPrefix }));
    await connection.ready();
    connections.push(connection);
    return connection;
  };
  const [a, b] = [await open(), await open()];
  return [new RedisTaskStore(a), new RedisTaskStore(b), a];
}

beforeAll(async () => {
  Logger.overrideLogger(false);
  redis = await startRedis();
});
afterAll(async () => {
  for (const connection of connections) await connection.onApplicationShutdown();
  await redis.stop();
});

let ids = 0;
function task(caller: string, status: McpTaskStatus = 'working', ttlMs = 60_000): McpTaskRecord {
  const at = new Date().toISOString();
  return {
    taskId: `t-${ids++}`,
    owner: null,
    caller,
    status,
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs,
    pollIntervalMs: 250,
    expiresAt: Date.now() + ttlMs,
    tool: 'slow',
    arguments: { n: ids },
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
  };
}

const QUOTA = { maxRunning: 5, maxStored: 8 };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('RedisTaskStore quotas', () => {
  it('lets exactly maxRunning of 20 concurrent creates of one caller through, across two nodes; another caller is not held', async () => {
    const [a, b] = await nodes();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refusal((i % 2 ? a : b).create(task('address:x'), QUOTA))),
    );
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(5);
    const refused = outcomes.filter((o) => o !== undefined);
    expect(refused).toHaveLength(15);
    for (const error of refused) {
      expect(error).toBeInstanceOf(McpTaskQuotaExceededException);
      expect(error).toMatchObject({
        code: -32050,
        httpStatus: 429,
        httpHeaders: { 'retry-after': '1' },
        data: { retryAfterMs: 250, limit: 'maxRunningTasksPerCaller' },
      });
    }
    await expect(a.create(task('address:y'), QUOTA)).resolves.toBeUndefined();
  });

  it('a task that finishes frees a running slot; stored tasks are held until the oldest finished one expires', async () => {
    const [a, b] = await nodes();
    const live = Array.from({ length: 5 }, () => task('principal:p'));
    for (const record of live) await a.create(record, QUOTA);
    await b.update(live[0]!.taskId, (r) => ({ ...r, status: 'completed', result: { content: [] } }));
    await expect(b.create(task('principal:p'), QUOTA)).resolves.toBeUndefined();
    await b.update(live[1]!.taskId, (r) => ({ ...r, status: 'cancelled' }));
    // Two more finished tasks, one short-lived, fill the stored quota (4 live + 2 finished + 2 = 8).
    await a.create(task('principal:p', 'completed', 400), QUOTA);
    await a.create(task('principal:p', 'failed', 5000), QUOTA);
    const error = await refusal(a.create(task('principal:p'), QUOTA));
    expect(error).toMatchObject({ httpStatus: 429, data: { limit: 'maxStoredTasksPerCaller' } });
    const retryAfterMs = (error as McpTaskQuotaExceededException).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 50));
    await expect(a.create(task('principal:p'), QUOTA)).resolves.toBeUndefined();
  });

  it('keeps the arguments apart from the status: updates rewrite only the status, reads share one frozen copy per node', async () => {
    const [a, b, connection] = await nodes();
    const record = { ...task('address:z'), arguments: { blob: 'x'.repeat(4 * 1024 * 1024) } };
    await a.create(record, QUOTA);
    const first = (await b.get(record.taskId))!;
    expect(first.arguments['blob']).toHaveLength(4 * 1024 * 1024);
    expect(Object.isFrozen(first.arguments)).toBe(true);
    for (let i = 1; i <= 200; i++) {
      const updated = await b.update(record.taskId, (r) => ({ ...r, statusMessage: `Progress ${i}` }));
      expect(updated!.arguments).toBe(first.arguments);
    }
    const last = (await b.get(record.taskId))!;
    expect(last.statusMessage).toBe('Progress 200');
    expect(last.arguments).toBe(first.arguments);
    const status = await connection.run((r) => r.get(`${connection.prefix}task:${record.taskId}`));
    expect(status!.length).toBeLessThan(2000);
  });

  it('keeps the arguments of a record written before they had their own key through its updates', async () => {
    const [a, b, connection] = await nodes();
    const { caller: _caller, ...legacy } = { ...task('address:old'), arguments: { city: 'Lyon' } };
    await connection.run((r) =>
      r.set(`${connection.prefix}task:${legacy.taskId}`, JSON.stringify(legacy), 'PX', 60_000),
    );
    expect((await a.get(legacy.taskId))!.arguments).toEqual({ city: 'Lyon' });
    await b.update(legacy.taskId, (r) => ({ ...r, statusMessage: 'Progress 1' }));
    await b.update(legacy.taskId, (r) => ({ ...r, status: 'input_required' }));
    const read = (await a.get(legacy.taskId))!;
    expect(read).toMatchObject({ status: 'input_required', statusMessage: 'Progress 1', arguments: { city: 'Lyon' } });
  });
});
