import { Global, Module, type Provider } from '@nestjs/common';
import { INTEGRATION_TASK_EXECUTOR } from '../core/mcp.tokens.js';
import { INTEGRATION_TASK_QUEUE_HEALTH_PROBE, pingProbe } from '../core/mcp-health-probe.js';
import { BullmqTaskExecutor } from './bullmq-task-executor.js';
import {
  MCP_TASK_QUEUE_CONFIG,
  MCP_TASK_QUEUE_MODULE_OPTIONS,
  McpTaskQueueConfigurableModule,
} from './mcp-task-queue.module-definition.js';
import { type McpTaskQueueOptions, resolveMcpTaskQueueOptions } from './mcp-task-queue.options.js';
import { McpTaskQueueConnection } from './task-queue-connection.js';
import { TaskQueueWorker } from './task-queue-worker.js';

const providers: Provider[] = [
  {
    provide: MCP_TASK_QUEUE_CONFIG,
    useFactory: (options: McpTaskQueueOptions) => resolveMcpTaskQueueOptions(options),
    inject: [MCP_TASK_QUEUE_MODULE_OPTIONS],
  },
  McpTaskQueueConnection,
  BullmqTaskExecutor,
  TaskQueueWorker,
  { provide: INTEGRATION_TASK_EXECUTOR, useExisting: BullmqTaskExecutor },
  // For @mocapi/nestjs/terminus. The queue's commands wait for a reconnect, so only a ready connection is pinged.
  {
    provide: INTEGRATION_TASK_QUEUE_HEALTH_PROBE,
    useFactory: ({ redis }: McpTaskQueueConnection) =>
      pingProbe('taskQueue', () =>
        redis.status === 'ready' ? redis.ping() : Promise.reject(new Error(`its Redis connection is ${redis.status}`)),
      ),
    inject: [McpTaskQueueConnection],
  },
];

/**
 * Runs task handlers on a BullMQ queue, so a task outlives the node that started it. Import it next
 * to `McpModule` and `McpRedisModule` (whose task store every node must share), in any order:
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpModule.forRoot({ name: 'reports', version: '1.0.0', mrtr: { secrets: [process.env.MCP_STATE_SECRET!] } }),
 *     McpRedisModule.forRoot({ connection: process.env.REDIS_URL! }),
 *     McpTaskQueueModule.forRoot({ connection: process.env.REDIS_URL!, concurrency: 2 }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 *
 * It is global and fills the core's task-executor slot ({@link BullmqTaskExecutor}); an executor the
 * application passes to `McpModule.forRoot` (`taskExecutor`) still wins. Every node runs a worker.
 *
 * @publicApi
 */
@Global()
@Module({
  providers,
  exports: [McpTaskQueueConnection, BullmqTaskExecutor, INTEGRATION_TASK_EXECUTOR, INTEGRATION_TASK_QUEUE_HEALTH_PROBE],
})
export class McpTaskQueueModule extends McpTaskQueueConfigurableModule {}
