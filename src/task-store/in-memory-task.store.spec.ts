import { McpError } from '../protocol/mcp.error.js';
import { McpClock } from '../core/mcp-clock.js';
import { InMemoryTaskStore } from './in-memory-task.store.js';
import type { McpTaskRecord, McpTaskStatus } from './mcp-task-record.js';
import { McpTaskQuotaExceededException } from './task-quota-exceeded.exception.js';

class FixedClock extends McpClock {
  current = 1_000_000;
  now(): number {
    return this.current;
  }
}

function task(taskId: string, status: McpTaskStatus = 'working', ttlMs = 10_000, now = 1_000_000): McpTaskRecord {
  const at = new Date(now).toISOString();
  return {
    taskId,
    owner: 'alice',
    status,
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs,
    pollIntervalMs: 1000,
    expiresAt: now + ttlMs,
    tool: 't',
    arguments: { n: 1 },
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
  };
}

describe('InMemoryTaskStore', () => {
  it('finds a task as soon as create resolves, as a copy nobody can mutate behind its back', async () => {
    const store = new InMemoryTaskStore(new FixedClock());
    const record = task('a');
    await store.create(record);
    record.status = 'failed';
    const found = await store.get('a');
    expect(found?.status).toBe('working');
    expect(() => (found!.arguments['n'] = 2)).toThrow(TypeError);
    expect((await store.get('a'))?.arguments).toEqual({ n: 1 });
  });

  it('updates atomically; a change that returns undefined leaves the task as it is', async () => {
    const store = new InMemoryTaskStore(new FixedClock());
    await store.create(task('a'));
    expect((await store.update('a', (r) => ({ ...r, status: 'completed', result: { content: [] } })))?.status).toBe(
      'completed',
    );
    expect((await store.update('a', () => undefined))?.status).toBe('completed');
    expect(await store.update('missing', (r) => r)).toBeUndefined();
  });

  it('forgets a task once its ttlMs has passed, and not before', async () => {
    const clock = new FixedClock();
    const store = new InMemoryTaskStore(clock);
    await store.create(task('a', 'working', 5000));
    clock.current += 4999;
    expect(await store.get('a')).toBeDefined();
    clock.current += 1;
    expect(await store.get('a')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('is bounded: finished tasks make room first, and a store full of live tasks refuses a new one', async () => {
    const store = new InMemoryTaskStore(new FixedClock(), 2);
    await store.create(task('done', 'completed'));
    await store.create(task('live'));
    await store.create(task('new'));
    expect(await store.get('done')).toBeUndefined();
    expect(await store.get('live')).toBeDefined();
    const refused = await store.create(task('one-too-many')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).httpStatus).toBe(503);
    expect((refused as McpError).httpHeaders).toEqual({ 'retry-after': '1' });
    expect((refused as McpError).data).toEqual({ retryAfterMs: 1000, limit: 'maxTasks' });
    expect(store.size).toBe(2);
  });

  const QUOTA = { maxRunning: 2, maxStored: 3 };
  const of = (caller: string, id: string, status: McpTaskStatus = 'working', ttlMs = 10_000): McpTaskRecord => ({
    ...task(id, status, ttlMs),
    caller,
  });

  it('holds each caller to its running quota, counting only its live tasks; another caller is not held', async () => {
    const store = new InMemoryTaskStore(new FixedClock());
    await store.create(of('address:a', 'a1'), QUOTA);
    await store.create(of('address:a', 'a2', 'input_required'), QUOTA);
    const refused = await store.create(of('address:a', 'a3'), QUOTA).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpTaskQuotaExceededException);
    expect(refused).toMatchObject({
      code: -32050,
      httpStatus: 429,
      httpHeaders: { 'retry-after': '1' },
      data: { retryAfterMs: 1000, limit: 'maxRunningTasksPerCaller' },
    });
    expect(await store.get('a3')).toBeUndefined();
    await expect(store.create(of('address:b', 'b1'), QUOTA)).resolves.toBeUndefined();
    await store.update('a1', (r) => ({ ...r, status: 'completed' }));
    await expect(store.create(of('address:a', 'a3'), QUOTA)).resolves.toBeUndefined();
  });

  it('holds each caller to its stored quota until its oldest finished task expires, then takes tasks again', async () => {
    const clock = new FixedClock();
    const store = new InMemoryTaskStore(clock);
    await store.create(of('address:a', 'old', 'completed', 4000), QUOTA);
    await store.create(of('address:a', 'newer', 'failed', 9000), QUOTA);
    await store.create(of('address:a', 'live'), QUOTA);
    const refused = await store.create(of('address:a', 'x'), QUOTA).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      httpStatus: 429,
      httpHeaders: { 'retry-after': '4' },
      data: { retryAfterMs: 4000, limit: 'maxStoredTasksPerCaller' },
    });
    clock.current += 4000;
    await expect(store.create(of('address:a', 'x'), QUOTA)).resolves.toBeUndefined();
    // Without a quota (a store used directly), nothing per caller is counted.
    await expect(store.create(of('address:a', 'y'))).resolves.toBeUndefined();
  });

  it('keeps one frozen copy of the arguments, shared by every read and by every version a progress update makes', async () => {
    const store = new InMemoryTaskStore(new FixedClock());
    const big = { blob: 'x'.repeat(4 * 1024 * 1024), rows: [{ n: 1 }] };
    await store.create({ ...task('big'), arguments: big });
    const first = (await store.get('big'))!;
    expect(first.arguments).not.toBe(big); // copied once on the way in: the caller's object stays its own
    expect(Object.isFrozen(big)).toBe(false);
    expect(Object.isFrozen(first.arguments)).toBe(true);
    expect(Object.isFrozen(first.arguments['rows'])).toBe(true);
    expect(await store.get('big')).toBe(first);
    for (let i = 1; i <= 200; i++) {
      const updated = await store.update('big', (r) => ({ ...r, statusMessage: `Progress ${i}` }));
      expect(updated!.arguments).toBe(first.arguments);
    }
    const last = (await store.get('big'))!;
    expect(last.statusMessage).toBe('Progress 200');
    expect(last.arguments).toBe(first.arguments);
    expect(Object.isFrozen(last)).toBe(true);
  });
});

describe('InMemoryTaskStore byte budget', () => {
  const sized = (caller: string, id: string, status: McpTaskStatus = 'working', ttlMs = 10_000): McpTaskRecord => ({
    ...task(id, status, ttlMs),
    caller,
    arguments: { blob: 'x'.repeat(1000) },
  });
  // The record's JSON, its arguments counted apart ("arguments": is not counted).
  const bytes = (record: McpTaskRecord) => Buffer.byteLength(JSON.stringify(record)) - '"arguments":,'.length;
  // Each task takes about 1300 bytes: the budget takes four of them and not five.
  const ONE = bytes(sized('address:a', 'a1'));
  const BUDGET = { maxRunning: 100, maxStored: 100, maxStoredBytes: Math.floor(4.5 * ONE) };

  it('counts what each task of a caller takes as JSON and refuses the task that would pass the budget (429, Retry-After)', async () => {
    const store = new InMemoryTaskStore(new FixedClock());
    const records = ['a1', 'a2', 'a3', 'a4'].map((id) => sized('address:a', id));
    for (const record of records) await store.create(record, BUDGET);
    const expected = records.reduce((sum, record) => sum + bytes(record), 0);
    expect(store.bytesOf('address:a')).toBe(expected);
    const refused = await store.create(sized('address:a', 'a5'), BUDGET).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpTaskQuotaExceededException);
    expect(refused).toMatchObject({
      code: -32050,
      httpStatus: 429,
      httpHeaders: { 'retry-after': '1' },
      data: { retryAfterMs: 1000, limit: 'maxStoredTaskBytesPerCaller' },
    });
    expect((refused as Error).message).toContain(`limits.maxStoredTaskBytesPerCaller is ${BUDGET.maxStoredBytes}`);
    expect(await store.get('a5')).toBeUndefined();
    expect(store.bytesOf('address:a')).toBe(expected);
    await expect(store.create(sized('address:b', 'b1'), BUDGET)).resolves.toBeUndefined();
  });

  it('frees a task’s bytes when it expires; Retry-After says when the oldest finished one goes', async () => {
    const clock = new FixedClock();
    const store = new InMemoryTaskStore(clock);
    await store.create(sized('address:a', 'o1', 'completed', 3000), BUDGET);
    for (const id of ['a2', 'a3', 'a4']) await store.create(sized('address:a', id, 'working', 60_000), BUDGET);
    const refused = await store.create(sized('address:a', 'x'), BUDGET).catch((e: unknown) => e);
    expect(refused).toMatchObject({ httpHeaders: { 'retry-after': '3' }, data: { retryAfterMs: 3000 } });
    const before = store.bytesOf('address:a');
    clock.current += 3000;
    await expect(store.create(sized('address:a', 'x'), BUDGET)).resolves.toBeUndefined();
    const old = sized('address:a', 'o1', 'completed', 3000);
    expect(store.bytesOf('address:a')).toBe(before - bytes(old) + bytes(sized('address:a', 'x')));
    clock.current += 60_000;
    expect(await store.get('a2')).toBeUndefined();
    await store.create(sized('address:a', 'y', 'working', 1), BUDGET); // its count forgets the expired ones
    expect(store.bytesOf('address:a')).toBe(bytes(sized('address:a', 'y', 'working', 1)));
  });

  it('refuses with -32602 (400) a task that alone takes more than the budget: retrying could not help', async () => {
    const store = new InMemoryTaskStore(new FixedClock());
    const huge = { ...sized('address:a', 'huge'), arguments: { blob: 'x'.repeat(6000) } };
    expect(bytes(huge)).toBeGreaterThan(BUDGET.maxStoredBytes);
    const refused = await store.create(huge, BUDGET).catch((e: unknown) => e);
    expect(refused).not.toBeInstanceOf(McpTaskQuotaExceededException);
    expect(refused).toMatchObject({
      code: -32602,
      httpStatus: 400,
      data: { limit: 'maxStoredTaskBytesPerCaller', maxBytes: BUDGET.maxStoredBytes },
    });
    expect(store.size).toBe(0);
  });

  it('refuses an update that grows a task past the budget, leaving it as it was; one that does not grow it passes', async () => {
    const store = new InMemoryTaskStore(new FixedClock());
    for (const id of ['a1', 'a2', 'a3']) await store.create(sized('address:a', id), BUDGET);
    const before = store.bytesOf('address:a');
    const result = { content: [{ type: 'text', text: 'y'.repeat(2 * ONE) }] };
    const refused = await store
      .update('a1', (r) => ({ ...r, status: 'completed', result }), BUDGET)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ httpStatus: 429, data: { limit: 'maxStoredTaskBytesPerCaller' } });
    expect((await store.get('a1'))?.status).toBe('working');
    expect(store.bytesOf('address:a')).toBe(before);
    // A smaller one fits, and is counted.
    const small = { content: [{ type: 'text', text: 'y'.repeat(100) }] };
    await store.update('a1', (r) => ({ ...r, status: 'completed', result: small }), BUDGET);
    expect(store.bytesOf('address:a')).toBeGreaterThan(before + 100);
    // Without a quota an update is written whatever its size, and counted: the budget is then passed…
    await store.update('a2', (r) => ({ ...r, statusMessage: 'z'.repeat(2 * ONE) }));
    expect(store.bytesOf('address:a')).toBeGreaterThan(BUDGET.maxStoredBytes);
    const grow = await store.update('a3', (r) => ({ ...r, statusMessage: 'grows' }), BUDGET).catch((e) => e);
    expect(grow).toMatchObject({ data: { limit: 'maxStoredTaskBytesPerCaller' } });
    // …and a change that does not grow a task is still taken, even past it.
    const shorter = await store.update('a2', (r) => ({ ...r, statusMessage: 'z'.repeat(2 * ONE - 10) }), BUDGET);
    expect(shorter?.statusMessage).toHaveLength(2 * ONE - 10);
    expect(store.bytesOf('address:a')).toBeGreaterThan(BUDGET.maxStoredBytes);
  });

  it('forgets the caller’s expired tasks before refusing an update', async () => {
    const clock = new FixedClock();
    const store = new InMemoryTaskStore(clock);
    await store.create(sized('address:a', 'short', 'completed', 1000), BUDGET);
    await store.create(sized('address:a', 'long', 'working', 60_000), BUDGET);
    const result = { content: [{ type: 'text', text: 'y'.repeat(3 * ONE) }] };
    const grow = (r: McpTaskRecord): McpTaskRecord => ({ ...r, status: 'completed', result });
    await expect(store.update('long', grow, BUDGET)).rejects.toMatchObject({ data: { retryAfterMs: 1000 } });
    clock.current += 1000;
    await expect(store.update('long', grow, BUDGET)).resolves.toMatchObject({ status: 'completed' });
  });
});
