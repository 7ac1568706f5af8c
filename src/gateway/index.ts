/**
 * `@mocapi/nestjs/gateway`: other MCP servers mounted into this application's server, built on
 * `@mocapi/nestjs/client` (the connections) and the replay engine (questions passed through).
 */
export { McpGatewayModule } from './mcp-gateway.module.js';
export type { McpGatewayConfigurableModule, McpGatewayOptionsFactory } from './mcp-gateway.module-definition.js';
export { McpGateway, type McpUpstreamState } from './mcp-gateway.js';
export type { McpGatewayOptions, McpGatewayUpstream } from './mcp-gateway.options.js';
export { McpUpstreamError } from './mcp-upstream.error.js';
export { McpUpstreamUnavailableException } from './mcp-upstream-unavailable.exception.js';
// Named by the signatures above; exported by `@mocapi/nestjs`.
export type { McpError } from '../protocol/mcp.error.js';
