import { IntrinsicException } from '@nestjs/common';

/**
 * Why an MCP call's signal was aborted when nobody on the server did anything wrong: the client
 * closed its connection, sent `notifications/cancelled`, ended its session, fell too far behind on
 * its stream, or the server is shutting down. Intrinsic, so a handler that rejects with
 * `signal.reason` is not logged as a server error by Nest: the stop was asked for. `reason` says
 * which, for code that wants to tell them apart.
 *
 * @publicApi
 */
export class McpCallAbortedError extends IntrinsicException {
  constructor(
    message: string,
    readonly reason:
      'disconnected' | 'cancelled' | 'session-ended' | 'client-behind' | 'timeout' | 'shutdown' | 'task-ended',
  ) {
    super(message);
    this.name = 'McpCallAbortedError';
  }
}

/** Who or what stopped a call (`McpCallAbortedError.reason`), by the name the package's own code uses. */
export type McpCallAbortReason = McpCallAbortedError['reason'];

/** Whether `error` is a call's abort reason (a client or server stop, not a failure). */
export function isCallAborted(error: unknown): error is McpCallAbortedError {
  return error instanceof McpCallAbortedError;
}
