/**
 * JSON-RPC error codes used by MCP 2026-07-28 (spec notes §4). The -32020..-32022 codes are answered
 * with HTTP 400 on Streamable HTTP, as is -32602 for missing `_meta` fields; -32601 gets HTTP 404.
 * The retired -32002 and -32042 are deliberately absent and must not be sent.
 *
 * @publicApi
 */
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

/**
 * One of the numeric codes listed in {@link McpErrorCode}.
 *
 * @publicApi
 */
export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];
