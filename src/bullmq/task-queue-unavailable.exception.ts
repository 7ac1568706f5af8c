import { McpError } from '../protocol/mcp.error.js';
import { transientErrorArgs } from '../protocol/transient-error.js';

/**
 * A task call could not be queued because the queue's Redis did not take the job (a connection
 * lost, a Redis Cluster failing over): JSON-RPC error -32051 with `data: { retryAfterMs }`, HTTP 503
 * and `Retry-After`. Nothing ran; the task it would have run is kept as failed with the same error,
 * and the same call may be sent again (with its `idempotencyKey`, it is not refused as a repeat).
 *
 * @publicApi
 */
export class McpTaskQueueUnavailableException extends McpError {
  /** @param retryAfterMs - How long the client should wait before sending the call again (ms). */
  constructor(
    /** How long the client should wait before sending the call again (ms). */
    readonly retryAfterMs = 1000,
  ) {
    super(
      ...transientErrorArgs(
        retryAfterMs,
        (seconds) => `Temporarily unavailable: the task queue could not take the task; retry after ${seconds} s`,
      ),
    );
    this.name = 'McpTaskQueueUnavailableException';
  }
}
