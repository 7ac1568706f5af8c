/**
 * `@mocapi/nestjs/redis`: several nodes of one MCP server on a shared Redis (flow store, event bus,
 * 2025-era session backplane, rate-limit storage, task store, the authorization server's store). Needs the optional peer `ioredis`.
 */
export { McpRedisModule } from './mcp-redis.module.js';
export type { McpRedisOptionsFactory } from './mcp-redis.module-definition.js';
export type { McpRedisOptions } from './mcp-redis.options.js';
export { McpRedisConnection } from './mcp-redis.connection.js';
export { RedisFlowStore } from './redis-flow.store.js';
export { RedisEventBus } from './redis-event.bus.js';
export { RedisSessionBackplane } from './redis-session.backplane.js';
export { RedisThrottlerStorage } from './redis-throttler.storage.js';
export { RedisTaskStore } from './redis-task.store.js';
export { RedisAuthorizationStore } from './redis-authorization.store.js';
export { MCP_UNAVAILABLE, McpUnavailableException } from './mcp-unavailable.exception.js';
