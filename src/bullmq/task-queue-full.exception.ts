import { McpError } from '../protocol/mcp.error.js';

/**
 * The code of a transient refusal (`MCP_UNAVAILABLE` of `@mocapi/nestjs/redis`, which this entry
 * cannot import): nothing ran, the same call may be sent again shortly.
 */
const UNAVAILABLE = -32051;

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
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(
      UNAVAILABLE,
      `The task queue is full (${maxQueuedTasks} tasks waiting); retry after ${seconds} s`,
      { retryAfterMs, maxQueuedTasks },
      503,
      { 'retry-after': String(seconds) },
    );
    this.name = 'McpTaskQueueFullException';
  }
}
