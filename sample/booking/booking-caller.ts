import type { McpExchange, McpPrincipalSource } from '../../src/index.js';

/**
 * Who is calling, as the library counts a caller for its per-caller limits and task ownership
 * (docs/limits.md): the principal (`McpPrincipalSource`, e.g. the OAuth `sub`), else the client
 * address of the HTTP connection, else `stdio` (one client per process). Behind a proxy every
 * anonymous guest has the proxy's address: authenticate guests there.
 */
export function callerOf(principals: McpPrincipalSource, exchange: McpExchange): string {
  const principal = principals.resolve(exchange);
  if (principal !== null) return `principal:${principal}`;
  const { transport } = exchange;
  if (transport.kind !== 'http') return transport.kind;
  return `address:${transport.request.socket.remoteAddress ?? 'unknown'}`;
}
