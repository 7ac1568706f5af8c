import { McpError } from './mcp.error.js';
import { McpErrorCode } from './mcp-error-codes.js';
import { isJsonObject } from './is-json-object.js';
import { isJsonRpcId, type JsonRpcErrorObject, type JsonRpcId, type JsonRpcResponse } from './json-rpc.js';

/** A response and the HTTP status (and extra headers) it travels with (stdio ignores both). */
export interface DispatchOutcome {
  readonly status: number;
  readonly response: JsonRpcResponse;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The parts of a JSON-RPC request every era checks the same way. */
export interface JsonRpcRequestParts {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** The id, method and params of a message that has an id, or the failure that refuses it (-32600). */
export function readRequest(message: Record<string, unknown>): JsonRpcRequestParts | DispatchOutcome {
  const { id, method } = message;
  const params = message['params'] ?? {};
  if (!isJsonRpcId(id)) return failure(null, McpError.invalidRequest('The request id must be a string or a number'));
  if (typeof method !== 'string') return failure(id, McpError.invalidRequest('The request has no method'));
  if (!isJsonObject(params)) return failure(id, McpError.invalidRequest('params must be an object'));
  return { id, method, params };
}

/** The success response of `id`. */
export function succeeded(id: JsonRpcId, result: Record<string, unknown>): DispatchOutcome {
  return { status: 200, response: { jsonrpc: '2.0', id, result } };
}

/** Builds the error response; only McpError's own code, message and data ever reach the wire. */
export function failure(id: JsonRpcId | null, error: McpError): DispatchOutcome {
  const body: JsonRpcErrorObject = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  const outcome = { status: error.httpStatus, response: { jsonrpc: '2.0', id, error: body } } as const;
  return error.httpHeaders ? { ...outcome, headers: error.httpHeaders } : outcome;
}

/** -32700 for a body that is not JSON. */
export function parseErrorOutcome(): DispatchOutcome {
  return failure(
    null,
    new McpError(McpErrorCode.ParseError, 'Parse error: the body is not valid JSON', undefined, 400),
  );
}
