/**
 * `@mocapi/nestjs/redis`: several nodes of one MCP server on a shared Redis (flow store, event bus,
 * 2025-era session backplane, rate-limit storage, task store, the authorization server's store).
 * Needs the optional peer `ioredis`. `McpRedisModule` binds the stores of the core itself; the two
 * exported ones are for the modules an application configures (@nestjs/throttler, the
 * authorization server).
 */
export { McpRedisModule } from './mcp-redis.module.js';
export type { McpRedisConfigurableModule, McpRedisOptionsFactory } from './mcp-redis.module-definition.js';
export type { McpRedisOptions } from './mcp-redis.options.js';
export { RedisThrottlerStorage } from './redis-throttler-storage.js';
export { RedisAuthorizationStore } from './redis-authorization.store.js';
export { MCP_UNAVAILABLE, McpUnavailableException } from './mcp-unavailable.exception.js';
// Named by the signatures above; exported by `@mocapi/nestjs`.
export type { McpError } from '../protocol/mcp.error.js';
