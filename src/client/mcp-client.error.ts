/**
 * Why a call to another MCP server failed before the server could answer it:
 *
 * - `unreachable`: no connection (refused, reset, unknown host, the process did not start).
 * - `timeout`: no answer within the server's `timeoutMs`.
 * - `invalid-response`: the answer is not MCP (not JSON-RPC, not the expected shape or media type).
 * - `too-large`: the answer passed the server's `maxResponseBytes`; it was cut off while it arrived.
 * - `unavailable`: HTTP 503 (the transient error -32051) after the bounded retries; nothing ran.
 * - `unauthorized`: the server refused the credentials, or the token endpoint refused the client.
 * - `closed`: the application is shutting down and the connection is closed.
 *
 * @publicApi
 */
export type McpClientFailure =
  'unreachable' | 'timeout' | 'invalid-response' | 'too-large' | 'unavailable' | 'unauthorized' | 'closed';

/**
 * A call to a configured MCP server failed before that server could answer it (see
 * {@link McpClientFailure}); `cause` holds the official client's error. An error the server itself
 * answered (a JSON-RPC error such as -32602) is not wrapped: it reaches the caller as the official
 * client raised it.
 *
 * @publicApi
 */
export class McpClientError extends Error {
  constructor(
    /** The name of the server in `McpClientModule.forRoot({ servers })`. */
    readonly server: string,
    readonly failure: McpClientFailure,
    message: string,
    options: { cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(`MCP server "${server}": ${message}`, { cause: options.cause });
    this.name = 'McpClientError';
    this.retryAfterMs = options.retryAfterMs;
  }

  /** For `unavailable`: how long the server asked to wait before the next attempt. */
  readonly retryAfterMs?: number;
}
