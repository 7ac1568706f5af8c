import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import { StartableTaskScope, taskScope } from './task-call-scope.js';

const record = { taskId: 'task-1' } as McpTaskRecord;

describe('task call scopes', () => {
  it('a started task: its id from the start, and start() does nothing', async () => {
    const scope = taskScope('task-9');
    expect(scope.taskId).toBe('task-9');
    await expect(scope.start()).resolves.toBeUndefined();
  });

  it('a startable call creates one task however often (and concurrently) the handler starts it', async () => {
    let created = 0;
    const create = async () => (created++, record);
    const seen: (string | undefined)[] = [];
    const scope = new StartableTaskScope(create, () => seen.push(scope.taskId));
    expect(scope.taskId).toBeUndefined();
    await Promise.all([scope.start(), scope.start()]);
    await scope.start();
    expect(created).toBe(1);
    // The task id is known by the time the task is handed on, and then to the handler.
    expect(seen).toEqual(['task-1']);
    expect(scope.taskId).toBe('task-1');
    await expect(scope.started).resolves.toBe(record);
  });

  it('a store that refuses the task fails start(), and the call never becomes a task', async () => {
    const scope = new StartableTaskScope(
      () => Promise.reject(new Error('full')),
      () => undefined,
    );
    await expect(scope.start()).rejects.toThrow('full');
    expect(scope.taskId).toBeUndefined();
  });
});
