import { Injectable, Logger } from '@nestjs/common';
import { McpError } from '../protocol/mcp.error.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpTaskExecutor } from '../tasks/mcp-task-executor.js';
import { McpTaskQueueConnection } from './task-queue-connection.js';
import { McpTaskQueueFullException } from './task-queue-full.exception.js';
import { McpTaskQueueUnavailableException } from './task-queue-unavailable.exception.js';

/**
 * Runs task handlers as BullMQ jobs: a task ready to run (new, or with every question answered)
 * becomes a job that any node's worker takes ({@link TaskQueueWorker}); the job carries the task's
 * id, the record the rest. One job per round of a task: a round's id is the task id and the number of
 * questions issued so far, so a round is queued once however often it is submitted.
 */
@Injectable()
export class BullmqTaskExecutor extends McpTaskExecutor {
  readonly recoversLostTasks = true;
  private readonly logger = new Logger('McpTaskQueue');

  constructor(private readonly connection: McpTaskQueueConnection) {
    super();
  }

  /**
   * Queues the task's round. The queue full is refused with {@link McpTaskQueueFullException}; a
   * queue whose Redis does not take the job (a lost connection, a cluster failing over) with
   * {@link McpTaskQueueUnavailableException}: both transient, the call may be sent again.
   */
  async submit(task: McpTaskRecord): Promise<void> {
    try {
      await this.add(task);
    } catch (error) {
      if (error instanceof McpError) throw error;
      this.logger.warn(`Task ${task.taskId} not queued: ${error instanceof Error ? error.message : String(error)}`);
      throw new McpTaskQueueUnavailableException();
    }
  }

  private async add(task: McpTaskRecord): Promise<void> {
    const { queue, config } = this.connection;
    if ((await queue.count()) >= config.maxQueuedTasks) throw new McpTaskQueueFullException(config.maxQueuedTasks);
    // A run that fails for want of infrastructure (the store unreachable) is tried again; a handler
    // that throws only when its tool opts in (`retries`), else its task ends with it.
    const retry = config.retries[task.tool] ?? INFRASTRUCTURE_RETRY;
    await queue.add(
      task.tool,
      { taskId: task.taskId, tool: task.tool, ...(task.server !== undefined && { server: task.server }) },
      {
        jobId: jobIdOf(task),
        attempts: retry.attempts,
        backoff: { type: 'exponential', delay: retry.backoffMs },
        removeOnComplete: true,
        // Kept a while, so a node can tell a job the queue gave up on (its task then fails).
        removeOnFail: { age: 3600 },
      },
    );
  }

  /** Removes the task's waiting job; a running one stops through the cancellation every node hears. */
  async cancel(task: McpTaskRecord): Promise<void> {
    const job = await this.connection.queue.getJob(jobIdOf(task));
    if (job && (await job.isWaiting())) await job.remove().catch(() => undefined);
  }
}

const INFRASTRUCTURE_RETRY = { attempts: 3, backoffMs: 1000 };

/** The job of the task's current round. */
function jobIdOf(task: McpTaskRecord): string {
  return `${task.taskId}.${task.issuedKeys?.length ?? 0}`;
}
