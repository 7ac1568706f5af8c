import { InMemoryTaskStore } from '../../src/task-store/in-memory-task.store.js';
import type { McpTaskRecord } from '../../src/task-store/mcp-task-record.js';
import { ManualClock, startMrtrApp } from '../mrtr/mrtr-app.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { tasksModule } from './tasks.fixtures.js';
import { call, pollUntil, result, WITH_ELICITATION } from './tasks-wire.js';

// A running task is vouched for by its lease: any node that reads it past the lease fails it as
// abandoned by its node. So every write that makes a task `working` grants the lease itself: its
// creation (a node killed before its first renewal must not leave it `working` until its ttl), and
// the last answer of a task that waited for input (its old lease lapsed while it waited, and a read
// before the replay first renews it must not fail it).

const LEASE_MS = 1000;

/** The in-memory store, keeping every record written to it, in order. */
class RecordingTaskStore extends InMemoryTaskStore {
  readonly writes: McpTaskRecord[] = [];

  override async create(record: McpTaskRecord, quota?: Parameters<InMemoryTaskStore['create']>[1]): Promise<void> {
    await super.create(record, quota);
    this.writes.push(record);
  }

  override update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
  ): Promise<McpTaskRecord | undefined> {
    return super.update(taskId, (record) => {
      const next = change(record);
      if (next) this.writes.push(next);
      return next;
    });
  }

  of(taskId: string): McpTaskRecord[] {
    return this.writes.filter((write) => write.taskId === taskId);
  }
}

describe.each(ADAPTERS)('task leases, on %s', (adapter) => {
  const clock = new ManualClock();
  const store = new RecordingTaskStore(clock);
  let server: RunningApp;
  beforeAll(async () => {
    const module = tasksModule({ ttlMs: 3_600_000, pollIntervalMs: 50, leaseMs: LEASE_MS }, { taskStore: store });
    server = await startMrtrApp(module, adapter, { clock });
  });
  afterAll(async () => {
    await server.close();
  });

  it('a task is leased by the write that creates it, before its node first renews the lease', async () => {
    const created = result(await call(server.url, 'tools/call', { name: 'long_job', arguments: { label: 'lease' } }));
    expect(created.resultType).toBe('task');
    const [first] = store.of(created.taskId);
    expect(first).toMatchObject({ status: 'working', leaseExpiresAt: clock.now() + LEASE_MS });
    result(await call(server.url, 'tasks/cancel', { taskId: created.taskId }));
  });

  it('a task answered long after its lease lapsed is working again under a fresh lease, and completes', async () => {
    const created = result(
      await call(server.url, 'tools/call', { name: 'two_questions' }, { capabilities: WITH_ELICITATION }),
    );
    const asked = await pollUntil(server.url, created.taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests);
    clock.advance(60 * LEASE_MS);
    const mark = store.of(created.taskId).length;

    const name = { [key!]: { action: 'accept', content: { name: 'Ada' } } };
    result(await call(server.url, 'tasks/update', { taskId: created.taskId, inputResponses: name }));
    const resumed = store.of(created.taskId).slice(mark)[0];
    expect(resumed).toMatchObject({ status: 'working', leaseExpiresAt: clock.now() + LEASE_MS });

    const second = await pollUntil(server.url, created.taskId, (task) => task.status !== 'working');
    expect(second.status).toBe('input_required');
    const [confirmKey] = Object.keys(second.inputRequests);
    const confirm = { [confirmKey!]: { action: 'accept', content: { confirm: true } } };
    result(await call(server.url, 'tasks/update', { taskId: created.taskId, inputResponses: confirm }));
    const done = await pollUntil(server.url, created.taskId, (task) => task.status !== 'working');
    expect(done.status).toBe('completed');
  });
});
