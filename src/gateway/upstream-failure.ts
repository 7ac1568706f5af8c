import { McpError } from '../protocol/mcp.error.js';
import { McpClientError } from '../client/mcp-client.error.js';
import { McpUpstreamError } from './mcp-upstream.error.js';
import { McpUpstreamUnavailableException } from './mcp-upstream-unavailable.exception.js';

/** The transient error's code: an upstream's own -32051 is ours to pass on as such. */
const UNAVAILABLE = -32051;

/**
 * What the downstream gets for a failed upstream request: the transient error when nothing ran,
 * an {@link McpUpstreamError} when it failed there, the upstream's own JSON-RPC error (its code and
 * message) when it answered one.
 */
export function upstreamFailure(upstream: string, method: string, error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof McpClientError) {
    switch (error.failure) {
      case 'unreachable':
      case 'unavailable':
      case 'closed':
        return new McpUpstreamUnavailableException(
          upstream,
          error.failure === 'unavailable' ? 'is overloaded' : 'cannot be reached',
          error.retryAfterMs ?? 1000,
        );
      case 'timeout':
        return new McpUpstreamError(upstream, 'timeout', `${method}: no answer in time`);
      case 'too-large':
        // Cut off while it arrived: the error an answer over maxResultChars gets.
        return new McpUpstreamError(
          upstream,
          'too-large',
          `${method}: the answer exceeds the client's maxResponseBytes`,
        );
      case 'unauthorized':
        return new McpUpstreamError(upstream, 'unauthorized', `${method}: the upstream refused our credentials`);
      default:
        return new McpUpstreamError(upstream, 'invalid-response', `${method}: the answer is not a valid MCP response`);
    }
  }
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'number' && Number.isInteger(code) && typeof message === 'string') {
    if (code === UNAVAILABLE) return new McpUpstreamUnavailableException(upstream, 'is overloaded');
    // The upstream's own answer (e.g. -32602 for bad arguments): its code, its message, named.
    // An upstream's internal error is ours to relay, not ours to have: 502, never 500.
    return new McpError(
      code,
      `Upstream "${upstream}": ${message.slice(0, 500)}`,
      { upstream },
      code === -32603 ? 502 : undefined,
    );
  }
  return new McpUpstreamError(upstream, 'failed', `${method} failed`);
}
