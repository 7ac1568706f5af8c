export { bootstrapStdio, type BootstrapStdioOptions, type McpStdioServer } from './bootstrap-stdio.js';
export type { McpStdioConnection } from './mcp-stdio-connection.js';
export { McpStdioTransport, type McpStdioStreams } from './mcp-stdio-transport.js';
export { McpStderrLogger } from './stderr-logger.js';
