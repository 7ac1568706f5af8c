/**
 * `@mocapi/nestjs/throttler`: rate limiting of MCP tools, prompts and resources on @nestjs/throttler.
 * Needs the optional peer `@nestjs/throttler`.
 */
export { McpThrottlerModule, MCP_THROTTLER_DEFAULTS } from './mcp-throttler.module.js';
export { McpThrottlerGuard } from './mcp-throttler.guard.js';
export { McpRateLimitedException, MCP_RATE_LIMITED } from './mcp-rate-limited.exception.js';
// Named by the signatures above; exported by `@mocapi/nestjs`.
export type { McpError } from '../protocol/mcp.error.js';
