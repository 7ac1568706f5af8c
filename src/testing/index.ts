// `@mocapi/nestjs/testing`: helpers for testing your own MCP tools in Jest.
export { McpTestClient, type McpAnswerer, type McpAppDocument, type McpTestClientOptions } from './mcp-test-client.js';
export { McpCallRound, type McpRoundResult } from './mcp-call-round.js';
export { McpTestError } from './mcp-test-error.js';
// What an answerer gets and gives back, and a tool's result (the shapes of the wire they name);
// also exported by `@mocapi/nestjs`.
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitContentValue,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestUrlParams,
  ElicitResult,
  EmbeddedResource,
  ImageContent,
  InputRequest,
  InputResponse,
  ListRootsResult,
  PrimitiveSchemaDefinition,
  RequestedSchema,
  ResourceContents,
  ResourceLink,
  Root,
  SamplingMessage,
  TextContent,
  TextResourceContents,
} from '../protocol/wire-types.js';
