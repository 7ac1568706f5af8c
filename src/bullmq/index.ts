/**
 * `@mocapi/nestjs/bullmq`: task handlers as BullMQ jobs that any node's worker takes, so a task
 * outlives its node (a restart, a crash, a deploy). Needs the optional peers `bullmq` and `ioredis`,
 * and a task store every node shares (`@mocapi/nestjs/redis`).
 */
export { McpTaskQueueModule } from './mcp-task-queue.module.js';
export type { McpTaskQueueConfigurableModule, McpTaskQueueOptionsFactory } from './mcp-task-queue.module-definition.js';
export type { McpTaskQueueOptions, McpTaskRetry } from './mcp-task-queue.options.js';
export { McpTaskQueueFullException } from './task-queue-full.exception.js';
export { McpTaskQueueUnavailableException } from './task-queue-unavailable.exception.js';
// Named by the signatures above; exported by `@mocapi/nestjs`.
export type { McpError } from '../protocol/mcp.error.js';
