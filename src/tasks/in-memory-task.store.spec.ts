import { McpError } from '../protocol/mcp.error.js';
import { McpClock } from '../mrtr/mcp-clock.js';
import { InMemoryTaskStore } from './in-memory-task.store.js';
import type { McpTaskRecord, McpTaskStatus } from './mcp-task.record.js';

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
    expect(store.size).toBe(2);
  });
});
