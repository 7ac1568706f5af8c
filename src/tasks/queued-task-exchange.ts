import { McpInbound } from '../calls/mcp-inbound.js';
import { RequestExchange } from '../calls/request-exchange.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import type { ClientCapabilities } from '../protocol/wire-types.js';

/**
 * The exchange a queued task's handler runs in, on whichever node took its job: the task's call
 * as the record keeps it, with no request behind it (`transport.kind` is `queue`, there is no
 * client info) and nowhere to send a notification (a task's progress becomes its status message
 * through the task exchange around this one).
 */
export function queuedTaskExchange(record: McpTaskRecord, signal: AbortSignal): McpExchange {
  const inbound = new McpInbound({ transport: QUEUE, signal: () => signal, notify: () => undefined });
  return new RequestExchange(
    {
      id: record.taskId,
      method: 'tools/call',
      params: Object.freeze({ name: record.tool, arguments: record.arguments }),
      protocolVersion: record.protocolVersion,
      clientCapabilities: record.clientCapabilities as Readonly<ClientCapabilities>,
      clientInfo: undefined,
      logLevel: undefined,
      progressToken: undefined,
    },
    inbound,
  );
}

const QUEUE = Object.freeze({ kind: 'queue' as const });
