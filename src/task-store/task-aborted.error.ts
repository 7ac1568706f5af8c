import { McpCallAbortedError } from '../protocol/mcp-call-aborted.error.js';

/**
 * The reason a task's handler signal is aborted with (cancelled, past its ttlMs, server shutting
 * down). Like every {@link McpCallAbortedError}, a handler that rejects with it is not logged as a
 * server error by Nest: the stop was asked for.
 *
 * @publicApi
 */
export class TaskAbortedError extends McpCallAbortedError {
  constructor(message: string, reason: McpCallAbortedError['reason'] = 'task-ended') {
    super(message, reason);
    this.name = 'TaskAbortedError';
  }
}
