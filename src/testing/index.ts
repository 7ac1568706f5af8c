// `@mocapi/nestjs/testing`: helpers for testing your own MCP tools in Jest.
export { McpTestClient, type McpAnswerer, type McpAppDocument, type McpTestClientOptions } from './mcp-test-client.js';
export { McpCallRound, type McpRoundResult } from './mcp-call-round.js';
export { McpTestError } from './mcp-test-error.js';
