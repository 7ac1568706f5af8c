import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import { BullmqTaskExecutor } from './bullmq-task-executor.js';
import type { McpTaskQueueConnection } from './task-queue-connection.js';
import { McpTaskQueueFullException } from './task-queue-full.exception.js';
import { McpTaskQueueUnavailableException } from './task-queue-unavailable.exception.js';

/** An executor on a queue whose `count` and `add` do what the test says (BullMQ's, not ours). */
function executorOn(queue: { count(): Promise<number>; add(...args: unknown[]): Promise<unknown> }) {
  const connection = { queue, config: { maxQueuedTasks: 10, retries: {} } } as unknown as McpTaskQueueConnection;
  return new BullmqTaskExecutor(connection);
}

const TASK = { taskId: 't-1', tool: 'report' } as McpTaskRecord;

describe('BullmqTaskExecutor.submit', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('queues one job per round of a task', async () => {
    const add = jest.fn(async () => undefined);
    await executorOn({ count: async () => 0, add }).submit(TASK);
    expect(add).toHaveBeenCalledWith(
      'report',
      { taskId: 't-1', tool: 'report' },
      expect.objectContaining({ jobId: 't-1.0' }),
    );
  });

  it('refuses with the transient error (-32051, 503) when the queue cannot take the job', async () => {
    const closed = executorOn({ count: async () => 0, add: () => Promise.reject(new Error('Connection is closed.')) });
    const refusal = await closed.submit(TASK).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(McpTaskQueueUnavailableException);
    expect(refusal).toMatchObject({ code: -32051, httpStatus: 503 });

    const unreadable = executorOn({
      count: () => Promise.reject(new Error('Too many Cluster redirections.')),
      add: async () => undefined,
    });
    await expect(unreadable.submit(TASK)).rejects.toBeInstanceOf(McpTaskQueueUnavailableException);
  });

  it('refuses a full queue as before', async () => {
    const full = executorOn({ count: async () => 10, add: async () => undefined });
    await expect(full.submit(TASK)).rejects.toBeInstanceOf(McpTaskQueueFullException);
  });
});
