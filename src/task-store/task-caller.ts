import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { McpTaskRecord } from './mcp-task-record.js';

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

/**
 * Whether `record` is a task of the server at `server` that `caller` ({@link callerOf}) created:
 * only then may the caller see, answer or cancel it. A task names its server and its caller; a
 * record written before it did is matched by its principal alone (`owner`).
 */
export function isTaskOf(record: McpTaskRecord, server: string, caller: string, principal: string | null): boolean {
  if (record.server !== undefined && record.server !== server) return false;
  return record.caller !== undefined ? record.caller === caller : record.owner === principal;
}
