/** JSON-RPC error codes used by MCP 2026-07-28 (spec notes §4). */
export const McpErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];
