/**
 * `@mocapi/nestjs/terminus`: the MCP server's readiness for `@nestjs/terminus` health checks (key
 * ring, registry, Redis and the task queue when their modules are imported). Needs the optional
 * peer `@nestjs/terminus` (11 or 12).
 */
export { McpHealthModule } from './mcp-health.module.js';
export { McpHealthIndicator } from './mcp-health-indicator.js';
