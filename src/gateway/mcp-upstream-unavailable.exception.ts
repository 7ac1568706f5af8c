import { McpError } from '../protocol/mcp.error.js';

/** The transient error's code (`MCP_UNAVAILABLE` of `@mocapi/nestjs/redis`): nothing ran, try again shortly. */
const UNAVAILABLE = -32051;

/**
 * An upstream could not take the call: down, answering 503, or already running
 * `maxConcurrentCalls` calls of this application. JSON-RPC error -32051 with
 * `data: { upstream, retryAfterMs }`, HTTP 503 and `Retry-After`: nothing ran upstream, the same
 * call may be sent again shortly.
 *
 * @publicApi
 */
export class McpUpstreamUnavailableException extends McpError {
  constructor(
    /** The upstream's `name`. */
    readonly upstream: string,
    reason: string,
    /** How long the caller should wait before sending the call again. */
    readonly retryAfterMs = 1000,
  ) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(
      UNAVAILABLE,
      `Temporarily unavailable: the upstream "${upstream}" ${reason}; retry after ${seconds} s`,
      { upstream, retryAfterMs },
      503,
      { 'retry-after': String(seconds) },
    );
    this.name = 'McpUpstreamUnavailableException';
  }
}
