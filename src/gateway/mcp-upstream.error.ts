import { McpError } from '../protocol/mcp.error.js';

/**
 * An upstream answered, but not usefully: too slow, not MCP, too large, refused our credentials,
 * or a call waiting for an answer is gone. A tool call gets it as a tool error (`isError: true`, the
 * message as text); a prompt or resource read as JSON-RPC error -32603 with HTTP 502.
 *
 * @publicApi
 */
export class McpUpstreamError extends McpError {
  constructor(
    /** The upstream's `name`. */
    readonly upstream: string,
    /**
     * Why: no answer in time, an answer that is not MCP, one over `maxResultChars` (or cut off
     * while it arrived, over the client's `maxResponseBytes`), credentials refused, a 2025-era call
     * no longer waiting for this answer, or another failure.
     */
    readonly reason: 'timeout' | 'invalid-response' | 'too-large' | 'unauthorized' | 'flow-lost' | 'failed',
    message: string,
  ) {
    super(-32603, `Upstream "${upstream}": ${message}`, { upstream, reason }, 502);
    this.name = 'McpUpstreamError';
  }
}
