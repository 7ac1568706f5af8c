import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DelayedError, type Job, WaitingError, Worker } from 'bullmq';
import { McpTaskRunner } from '../tasks/mcp-task.runner.js';
import { McpTaskQueueConnection, type TaskJobData } from './task-queue.connection.js';

/** How long a job of a tool at its `toolConcurrency` waits before it is offered again. */
const TOOL_BUSY_DELAY_MS = 250;

/** How long shutdown waits for the running jobs to be handed back before it closes the worker anyway. */
const HAND_BACK_WAIT_MS = 5000;

/**
 * This node's BullMQ worker: takes task jobs (at most `concurrency` at once, `toolConcurrency` per
 * tool) and runs each through the task runner, which replays the handler from the top with what the
 * task record keeps. A job ends when its task ended or parked for input (`tasks/update` queues the
 * next round). When the node shuts down, its running jobs go back to the queue at once (their
 * handlers are aborted, their endings dropped) and another node runs them; a job whose node died is
 * taken by another node once its lock lapses (`lockMs` + `stalledCheckMs`).
 */
@Injectable()
export class TaskQueueWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpTaskQueue');
  private readonly closing = new AbortController();
  private readonly runningByTool = new Map<string, number>();
  /** The jobs this worker is processing. */
  private readonly processing = new Set<Promise<void>>();
  private worker: Worker<TaskJobData> | undefined;

  constructor(
    private readonly connection: McpTaskQueueConnection,
    private readonly runner: McpTaskRunner,
  ) {}

  onModuleInit(): void {
    const { config, redis } = this.connection;
    this.worker = new Worker<TaskJobData>(config.queueName, (job, token) => this.process(job, token), {
      connection: redis,
      prefix: config.prefix,
      concurrency: config.concurrency,
      lockDuration: config.lockMs,
      stalledInterval: config.stalledCheckMs,
      maxStalledCount: config.maxNodeLosses,
    });
    this.worker.on('error', (error) => this.logger.warn(`Task queue: ${error.message}`));
    this.worker.on('failed', (job, error) => {
      // Given up by the queue (stalled too often, or tried three times): the task fails with it.
      if (job && !(error instanceof DelayedError) && !(error instanceof WaitingError)) {
        void this.runner.abandon(job.data.taskId, `The task queue gave up on this task: ${error.message}`);
      }
    });
  }

  /**
   * Stops taking jobs and hands the running ones back to the queue: their handlers are aborted, not
   * waited for. The worker is then closed without waiting for its blocking read of the next job.
   */
  async onModuleDestroy(): Promise<void> {
    this.closing.abort();
    if (!this.worker) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.processing),
      new Promise((resolve) => (timer = setTimeout(resolve, HAND_BACK_WAIT_MS))),
    ]);
    clearTimeout(timer);
    await this.worker.close(true);
  }

  private process(job: Job<TaskJobData>, token: string | undefined): Promise<void> {
    const processing = this.run(job, token);
    this.processing.add(processing);
    void processing.finally(() => this.processing.delete(processing)).catch(() => undefined);
    return processing;
  }

  private async run(job: Job<TaskJobData>, token: string | undefined): Promise<void> {
    const { taskId, tool } = job.data;
    const limit = this.connection.config.toolConcurrency[tool];
    const running = this.runningByTool.get(tool) ?? 0;
    if (limit !== undefined && running >= limit) {
      await job.moveToDelayed(Date.now() + TOOL_BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    this.runningByTool.set(tool, running + 1);
    try {
      const end = await this.runner.execute(taskId, this.closing.signal);
      if (end === 'interrupted') {
        await job.moveToWait(token);
        throw new WaitingError();
      }
    } finally {
      this.runningByTool.set(tool, (this.runningByTool.get(tool) ?? 1) - 1);
    }
  }
}
