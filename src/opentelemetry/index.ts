/**
 * `@mocapi/nestjs/opentelemetry`: spans and metrics of the OpenTelemetry MCP semantic conventions.
 * Needs the optional peer `@opentelemetry/api` (and an SDK registered by the application).
 */
export { McpOpenTelemetryModule, type McpOpenTelemetryOptions } from './mcp-opentelemetry.module.js';
