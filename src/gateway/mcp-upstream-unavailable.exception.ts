import { McpError } from '../protocol/mcp.error.js';
import { transientErrorArgs } from '../protocol/transient-error.js';

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
    super(
      ...transientErrorArgs(
        retryAfterMs,
        (seconds) => `Temporarily unavailable: the upstream "${upstream}" ${reason}; retry after ${seconds} s`,
        { upstream, retryAfterMs },
      ),
    );
    this.name = 'McpUpstreamUnavailableException';
  }
}
