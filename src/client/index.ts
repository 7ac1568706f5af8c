/**
 * `@mocapi/nestjs/client`: call other MCP servers from a Nest application, through the official
 * `@modelcontextprotocol/client` (an optional peer). `McpClientModule.forRoot({ servers })`, a
 * handle per server (`@InjectMcpClient(name)`, `McpClientRegistry`) that gives the connected
 * official `Client`.
 */
export { McpClientModule } from './mcp-client.module.js';
export type { McpClientConfigurableModule, McpClientOptionsFactory } from './mcp-client.module-definition.js';
export type {
  McpClientAuth,
  McpClientCredentials,
  McpClientOptions,
  McpClientServerOptions,
  McpClientStdio,
  McpClientTokenExchange,
} from './mcp-client.options.js';
export { McpClientConnection } from './mcp-client-connection.js';
export { McpClientRegistry } from './mcp-client.registry.js';
export { InjectMcpClient, getMcpClientToken } from './inject-mcp-client.decorator.js';
export { McpClientError, type McpClientFailure } from './mcp-client.error.js';
