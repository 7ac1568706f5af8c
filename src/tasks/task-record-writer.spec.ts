import { McpClock } from '../core/mcp-clock.js';
import { InMemoryTaskStore } from '../task-store/in-memory-task.store.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import type { McpTaskEvents } from './mcp-task-events.js';
import { TaskRecordWriter } from './task-record-writer.js';
import { cancelledRecord, progressedRecord } from './task-transitions.js';

class FixedClock extends McpClock {
  now(): number {
    return Date.UTC(2026, 0, 1);
  }
}

function task(taskId: string): McpTaskRecord {
  return {
    taskId,
    owner: null,
    status: 'working',
    createdAt: '2025-12-31T23:00:00.000Z',
    lastUpdatedAt: '2025-12-31T23:00:00.000Z',
    ttlMs: 60 * 60_000,
    pollIntervalMs: 1000,
    expiresAt: Date.UTC(2026, 0, 1) + 60_000,
    tool: 't',
    arguments: {},
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
  };
}

describe('TaskRecordWriter', () => {
  async function setUp(maxStoredBytes?: number) {
    const clock = new FixedClock();
    const store = new InMemoryTaskStore(clock);
    await store.create({ ...task('t1'), caller: 'address:a' });
    const emitted: McpTaskRecord[] = [];
    const events = { emit: (record: McpTaskRecord) => void emitted.push(record) } as unknown as McpTaskEvents;
    return { store, emitted, writer: new TaskRecordWriter(store, events, clock, maxStoredBytes) };
  }

  it('stores what the transition makes, at the clock time, and publishes it', async () => {
    const { store, emitted, writer } = await setUp();
    const updated = await writer.apply('t1', (record, now) => progressedRecord(record, 'Half way', now));
    expect(updated).toMatchObject({ statusMessage: 'Half way', lastUpdatedAt: '2026-01-01T00:00:00.000Z' });
    expect(await store.get('t1')).toEqual(updated);
    expect(emitted).toEqual([updated]);
  });

  it('publishes nothing when the transition leaves the task as it is, or the task is unknown', async () => {
    const { emitted, writer } = await setUp();
    expect(await writer.apply('t1', cancelledRecord)).toMatchObject({ status: 'cancelled' });
    expect(await writer.apply('t1', cancelledRecord)).toBeUndefined();
    expect(await writer.apply('t1', (record, now) => progressedRecord(record, 'late', now))).toBeUndefined();
    expect(await writer.apply('nope', cancelledRecord)).toBeUndefined();
    expect(emitted.map((record) => record.status)).toEqual(['cancelled']);
  });

  it('holds what it writes within its budget to the caller’s byte budget; apply writes whatever the size', async () => {
    const { store, emitted, writer } = await setUp(1000);
    const long = (record: McpTaskRecord, now: string) => progressedRecord(record, 'x'.repeat(1000), now);
    await expect(writer.applyWithinBudget('t1', long)).rejects.toMatchObject({
      data: { limit: 'maxStoredTaskBytesPerCaller' },
    });
    expect((await store.get('t1'))?.statusMessage).toBeUndefined();
    expect(emitted).toEqual([]);
    const short = await writer.applyWithinBudget('t1', (record, now) => progressedRecord(record, 'Half way', now));
    expect(short?.statusMessage).toBe('Half way');
    expect((await writer.apply('t1', long))?.statusMessage).toHaveLength(1000);
    expect(store.bytesOf('address:a')).toBeGreaterThan(1000);
  });
});
