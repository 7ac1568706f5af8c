import type { McpExchange } from '../protocol/mcp-exchange.js';

/**
 * Who a call is counted against, by the per-caller task quotas and by the rate limiter: the
 * principal, else the client address of the HTTP connection (`socket.remoteAddress`: behind a
 * proxy that is the proxy, so authenticate callers there), else `stdio` (one client per process).
 */
export function callerOf(exchange: McpExchange, principal: string | null): string {
  if (principal !== null) return `principal:${principal}`;
  const transport = exchange.transport;
  if (transport.kind !== 'http') return 'stdio';
  return `address:${transport.request.socket.remoteAddress ?? 'unknown'}`;
}
