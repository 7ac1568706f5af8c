import { McpError } from '../protocol/mcp.error.js';
import { transientErrorArgs } from '../protocol/transient-error.js';

/**
 * A task call found the queue full (`maxQueuedTasks` tasks waiting): JSON-RPC error -32051 with
 * `data: { retryAfterMs, maxQueuedTasks }`, HTTP 503 and `Retry-After`. The task it would have
 * run is kept as failed with the same error.
 *
 * @publicApi
 */
export class McpTaskQueueFullException extends McpError {
  constructor(
    readonly maxQueuedTasks: number,
    readonly retryAfterMs = 1000,
  ) {
    super(
      ...transientErrorArgs(
        retryAfterMs,
        (seconds) => `The task queue is full (${maxQueuedTasks} tasks waiting); retry after ${seconds} s`,
        { retryAfterMs, maxQueuedTasks },
      ),
    );
    this.name = 'McpTaskQueueFullException';
  }
}
