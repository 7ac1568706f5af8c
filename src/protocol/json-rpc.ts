// JSON-RPC 2.0 message shapes as MCP uses them (no batches).

/** A request id: a string or a finite number. MCP forbids `null` ids on requests. */
export type JsonRpcId = string | number;

/**
 * A JSON-RPC request that expects a response. In 2026-07-28 every request's `params._meta` must carry
 * the protocol version and client capabilities; a retry after `input_required` needs a new id.
 */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

/**
 * A one-way JSON-RPC message with no id and no response. Over Streamable HTTP a client's notification
 * POST gets 202 with an empty body.
 */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

/** The `error` member of a failure response; `code` is usually one of `McpErrorCode`. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A successful response. In MCP `result` is always an object, and in 2026-07-28 it always has a
 * `resultType`.
 */
export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: Record<string, unknown>;
}

/** An error response; `id` echoes the request's id and is `null` only when it could not be read. */
export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

/** Either kind of response to a request. */
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Whether `value` is a usable request id: any string, or a finite number (not NaN or Infinity). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The id of a message that is a request (it has a method), else null: a posted response's id names
 * the server's own pushed request, so a refusal of it must not carry that id.
 */
export function requestIdOf(message: unknown): JsonRpcId | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message) || !('method' in message)) return null;
  const id = (message as { id?: unknown }).id;
  return isJsonRpcId(id) ? id : null;
}
