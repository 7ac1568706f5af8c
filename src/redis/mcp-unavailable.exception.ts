import { McpError } from '../protocol/mcp.error.js';
import { TRANSIENT_ERROR_CODE, transientErrorArgs } from '../protocol/transient-error.js';

/**
 * The JSON-RPC error code of a request that needed a shared store which could not answer in time.
 * Like the rate limit's -32050 it sits in JSON-RPC's implementation range, clear of MCP's own codes
 * (upward from -32020) and of the legacy -32000..-32019.
 *
 * @publicApi
 */
export const MCP_UNAVAILABLE = TRANSIENT_ERROR_CODE;

/**
 * A transient failure: the request needed Redis (a flow claim, a rate-limit counter, a 2025-era
 * session's shared state) and Redis did not answer. JSON-RPC error -32051 with
 * `data: { retryAfterMs }`, HTTP 503 and `Retry-After` on Streamable HTTP: nothing ran, and the
 * same request may simply be sent again — 503 is the status clients and proxies already treat as
 * "try again shortly", unlike 500, which says the request itself broke something.
 *
 * @publicApi
 */
export class McpUnavailableException extends McpError {
  constructor(readonly retryAfterMs = 1000) {
    super(
      ...transientErrorArgs(
        retryAfterMs,
        (seconds) => `Temporarily unavailable: the shared store (Redis) did not answer; retry after ${seconds} s`,
      ),
    );
    this.name = 'McpUnavailableException';
  }
}
