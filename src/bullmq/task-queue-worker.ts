import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DelayedError, type Job, WaitingError, Worker } from 'bullmq';
import { McpServers } from '../mcp-servers.js';
import { TaskAbortedError } from '../task-store/task-aborted.error.js';
import type { McpTaskRunner } from '../tasks/mcp-task-runner.js';
import { McpTaskQueueConnection, type TaskJobData } from './task-queue-connection.js';

function gaveUp(reason: string): string {
  return `The task queue gave up on this task: ${reason}`;
}

/** How long a job of a tool at its `toolConcurrency` waits before it is offered again. */
const TOOL_BUSY_DELAY_MS = 250;

/** How long shutdown waits for the running jobs to be handed back before it closes the worker anyway. */
const HAND_BACK_WAIT_MS = 5000;

/**
 * Why a handler stops when this node lost its job's lock. Its kind is `'shutdown'` (this node stops
 * running the task and drops its ending), its message says why.
 */
function lockLostReason(): TaskAbortedError {
  return new TaskAbortedError('This node lost the task queue lock of the task; another node runs it', 'shutdown');
}

/**
 * This node's BullMQ worker: takes task jobs (at most `concurrency` at once, `toolConcurrency` per
 * tool) and runs each through the task runner of the server the job names (a tool name means
 * nothing outside its server), which replays the handler from the top with what the
 * task record keeps. A job ends when its task ended or parked for input (`tasks/update` queues the
 * next round). When the node shuts down, its running jobs go back to the queue at once (their
 * handlers are aborted, their endings dropped) and another node runs them; a job whose node died is
 * taken by another node once its lock lapses (`lockMs` + `stalledCheckMs`).
 *
 * Delivery is at least once. A node whose event loop stalls past `lockMs` loses the job's lock and
 * the queue hands the job to another node; when BullMQ then reports the loss (`lockRenewalFailed`,
 * on the first renewal after the stall, or the same job taken again here under a new lock), this
 * node's handler is aborted (its signal's reason is a `TaskAbortedError` of kind `'shutdown'` whose
 * message says the lock was lost) and its ending is dropped: the task is the new node's. What the
 * handler did before the abort may still have happened on both nodes. A handler that already
 * returned is left alone.
 */
@Injectable()
export class TaskQueueWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpTaskQueue');
  private readonly closing = new AbortController();
  private readonly runningByTool = new Map<string, number>();
  /** The jobs this worker is processing. */
  private readonly processing = new Set<Promise<void>>();
  /** Aborts the run of each job this worker holds the lock of, by job id, when that lock is lost. */
  private readonly lockLosses = new Map<string, AbortController>();
  private worker: Worker<TaskJobData> | undefined;
  private readonly servers: McpServers;

  constructor(
    private readonly connection: McpTaskQueueConnection,
    moduleRef: ModuleRef,
  ) {
    this.servers = new McpServers(moduleRef);
  }

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
    // A job the queue gave up on (its last attempt failed): the task fails with it. BullMQ also
    // reports each attempt that will be tried again; those have not finished.
    this.worker.on('failed', (job, error) => {
      if (job?.finishedOn !== undefined) void this.abandon(job.data, gaveUp(error.message));
    });
    // A job whose node died is back in the queue, unless it lost its node too often: then it is
    // failed, by the stalled check itself or (BullMQ 6) by the next worker that takes it.
    this.worker.on('stalled', (jobId) => void this.checkStalled(jobId));
    // This node could not renew these jobs' locks: the queue may already have handed them to
    // another node, so their handlers here stop and their endings are dropped.
    this.worker.on('lockRenewalFailed', (jobIds) => {
      for (const jobId of jobIds) this.loseLock(jobId);
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

  /** Aborts this node's run of the job, if one is running: its lock is lost. */
  private loseLock(jobId: string): void {
    const lost = this.lockLosses.get(jobId);
    if (!lost) return;
    this.lockLosses.delete(jobId);
    this.logger.warn(`Task queue: this node lost the lock of job ${jobId}; its handler here is stopped`);
    lost.abort(lockLostReason());
  }

  private async checkStalled(jobId: string): Promise<void> {
    try {
      const job = await this.connection.queue.getJob(jobId);
      if (!job || !(await job.isFailed())) return;
      // Read again: the job may have failed between the two reads above (BullMQ 6 fails it on the
      // next worker that takes it), and the first read then has no reason. Without one, the
      // `failed` event of that worker fails the task.
      const failed = (await this.connection.queue.getJob(jobId)) ?? job;
      if (failed.failedReason) await this.abandon(failed.data, gaveUp(failed.failedReason));
    } catch (error) {
      this.logger.warn(`Task queue: could not check stalled job ${jobId}: ${(error as Error).message}`);
    }
  }

  /** The runner of the server whose task the job is; throws (the job fails) when it has none. */
  private runnerOf(job: TaskJobData): McpTaskRunner {
    return this.servers.get(job.server).taskRunner;
  }

  /** Fails the job's task; never rejects. */
  private async abandon(job: TaskJobData, message: string): Promise<void> {
    try {
      await this.runnerOf(job).abandon(job.taskId, message);
    } catch (error) {
      this.logger.warn(`Task queue: could not fail task ${job.taskId}: ${(error as Error).message}`);
    }
  }

  private async run(job: Job<TaskJobData>, token: string | undefined): Promise<void> {
    const { taskId, tool } = job.data;
    const runner = this.runnerOf(job.data);
    const limit = this.connection.config.toolConcurrency[tool];
    const running = this.runningByTool.get(tool) ?? 0;
    if (limit !== undefined && running >= limit) {
      await job.moveToDelayed(Date.now() + TOOL_BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    this.runningByTool.set(tool, running + 1);
    // The job taken again here while an earlier run of it still goes on: that run lost its lock.
    const jobId = job.id ?? '';
    this.loseLock(jobId);
    const lockLoss = new AbortController();
    this.lockLosses.set(jobId, lockLoss);
    try {
      // A tool that opts in to retries, with attempts left, is tried again when its handler throws.
      const retry =
        this.connection.config.retries[tool] !== undefined && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
      const interrupt = AbortSignal.any([this.closing.signal, lockLoss.signal]);
      const end = await runner.execute(taskId, interrupt, retry);
      if (end === 'interrupted') {
        // A lost job is another node's now: BullMQ is told it was moved, and it is left as it is.
        if (!lockLoss.signal.aborted) await job.moveToWait(token);
        throw new WaitingError();
      }
      if (end === 'retry') throw new Error(`The handler of ${tool} threw; it is tried again`);
      // Its ending was not written (the store did not answer): the task is run again, within the
      // job's attempts; its handler keys its own effects on the task (McpTaskContext.operationId).
      if (end === 'unrecorded') throw new Error(`The ending of task ${taskId} was not recorded; it is run again`);
    } finally {
      if (this.lockLosses.get(jobId) === lockLoss) this.lockLosses.delete(jobId);
      this.runningByTool.set(tool, (this.runningByTool.get(tool) ?? 1) - 1);
    }
  }
}
