/**
 * The JSON-RPC code of the transient error: the request needed something that could not answer
 * in time (a shared store, a task queue, an upstream server). Nothing ran, and the same request may
 * be sent again shortly. Like the rate limit's -32050 it sits in JSON-RPC's implementation range,
 * clear of MCP's own codes. `@mocapi/nestjs/redis` exports it as `MCP_UNAVAILABLE`.
 */
export const TRANSIENT_ERROR_CODE = -32051;

/**
 * The `McpError` constructor arguments of a transient error: -32051, `message` (given the whole
 * seconds to wait, at least 1), `data` (default `{ retryAfterMs }`), HTTP 503 and `Retry-After` —
 * the status clients and proxies already treat as "try again shortly".
 */
export function transientErrorArgs(
  retryAfterMs: number,
  message: (seconds: number) => string,
  data: Record<string, unknown> = { retryAfterMs },
): [code: number, message: string, data: Record<string, unknown>, httpStatus: number, headers: Record<string, string>] {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return [TRANSIENT_ERROR_CODE, message(seconds), data, 503, { 'retry-after': String(seconds) }];
}
