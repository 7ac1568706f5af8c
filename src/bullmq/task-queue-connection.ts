import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Queue } from 'bullmq';
import { type Cluster, Redis } from 'ioredis';
import { MCP_TASK_QUEUE_CONFIG } from './mcp-task-queue.module-definition.js';
import type { ResolvedMcpTaskQueueOptions } from './mcp-task-queue.options.js';

/** How long startup waits for the queue's first connection before serving anyway (its health probe then says why). */
const STARTUP_WAIT_MS = 5000;

/**
 * What a job of the task queue carries: the task (its record holds the rest), its tool, and the
 * `path` of the server whose tool it is (absent on jobs queued before servers were told apart: the
 * global server runs those).
 */
export interface TaskJobData {
  readonly taskId: string;
  readonly tool: string;
  readonly server?: string;
}

/**
 * The module's Redis connection and its BullMQ {@link Queue} of tasks. It closes last, when the
 * application shuts down (after the worker handed its running jobs back and the HTTP server
 * answered its last requests), so every write of a shutdown reaches Redis.
 */
@Injectable()
export class McpTaskQueueConnection implements OnModuleInit, OnApplicationShutdown {
  /** The connection this module's queue and worker share (BullMQ duplicates it for blocking reads). */
  readonly redis: Redis | Cluster;
  readonly queue: Queue<TaskJobData>;
  private readonly ownsRedis: boolean;

  constructor(@Inject(MCP_TASK_QUEUE_CONFIG) readonly config: ResolvedMcpTaskQueueOptions) {
    this.ownsRedis = config.client === undefined;
    // BullMQ needs commands that wait for a reconnect rather than fail (`maxRetriesPerRequest: null`).
    this.redis =
      config.client ??
      (typeof config.connection === 'string'
        ? new Redis(config.connection, { maxRetriesPerRequest: null })
        : new Redis({ ...config.connection, maxRetriesPerRequest: null }));
    this.queue = new Queue<TaskJobData>(config.queueName, { connection: this.redis, prefix: config.prefix });
    // Outages are reported by the worker and by the requests that need Redis; no unhandled 'error'.
    this.queue.on('error', () => undefined);
  }

  /** Waits (boundedly) for the first connection, so a node that starts with Redis up is ready once it serves. */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.redis.once('ready', (onReady = resolve))),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, STARTUP_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (onReady) this.redis.off('ready', onReady);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    if (this.ownsRedis) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
