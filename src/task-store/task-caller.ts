import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { McpTaskRecord } from './mcp-task-record.js';

/**
 * Who a request is counted against, by every per-caller bound (task ownership and quotas, 2025-era
 * session quotas, the rate limiter): the principal, else the client address of the HTTP request
 * (`clientAddress`, the adapter's `req.ip`: behind a proxy the proxy's own address unless the
 * application trusts it, see docs/production.md), else `stdio` (one client per process). `source`
 * is the request's exchange, or anything else that carries its transport.
 */
export function callerOf(source: { readonly transport: McpTransportInfo }, principal: string | null): string {
  if (principal !== null) return `principal:${principal}`;
  const transport = source.transport;
  if (transport.kind !== 'http') return 'stdio';
  return `address:${transport.clientAddress ?? 'unknown'}`;
}

/**
 * Whether `record` is a task of the server at `server` that `caller` ({@link callerOf}) created:
 * only then may the caller see, answer or cancel it. A task names its server and its caller; a
 * record written before it did is matched by its principal alone (`owner`).
 */
export function isTaskOf(record: McpTaskRecord, server: string, caller: string, principal: string | null): boolean {
  if (record.server !== undefined && record.server !== server) return false;
  return record.caller !== undefined ? record.caller === caller : record.owner === principal;
}
