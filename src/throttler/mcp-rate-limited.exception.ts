import { McpError } from '../protocol/mcp.error.js';

/**
 * The JSON-RPC error code of an exceeded rate limit. JSON-RPC leaves -32000..-32099 to
 * implementations; MCP allocates its own codes upward from -32020 (-32020..-32022 today) and asks
 * new code not to use the legacy -32000..-32019, so this sits well clear of both, at -32050.
 *
 * @publicApi
 */
export const MCP_RATE_LIMITED = -32050;

/**
 * An exceeded rate limit: the JSON-RPC error -32050 with `data: { retryAfterMs }`, HTTP 429 and a
 * `Retry-After` header (whole seconds, rounded up) on Streamable HTTP; stdio sends the same error.
 *
 * @publicApi
 */
export class McpRateLimitedException extends McpError {
  constructor(readonly retryAfterMs: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(MCP_RATE_LIMITED, `Rate limit exceeded: retry after ${seconds} s`, { retryAfterMs }, 429, {
      'retry-after': String(seconds),
    });
    this.name = 'McpRateLimitedException';
  }
}
