import type { RegisteredTool } from '../discovery/registered-tool.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import type { ResolvedMcpTasksOptions } from '../task-store/mcp-tasks.options.js';
import { callerOf } from '../task-store/task-caller.js';
import { checkClientPayload } from '../task-store/task-payload.js';

/** A task-eligible call, as the tools method hands it over. */
export interface TaskCall {
  readonly tool: RegisteredTool;
  readonly exchange: McpExchange;
  readonly args: Record<string, unknown>;
  /** The validated (DTO-transformed) input the handler receives. */
  readonly input: unknown;
  readonly session: ReplaySession;
  readonly principal: string | null;
}

/** What runs: the handler of `tool` with `input`, in its replay `session`. */
export type TaskRun = Pick<TaskCall, 'tool' | 'input' | 'session'>;

/**
 * The task `taskId` a call to the server at `server` starts, `working` from `now` (epoch ms) for `ttlMs`: it keeps the call's
 * arguments, protocol version and client capabilities, which a resumed run sees again. It is leased
 * from its first write (`leaseMs`), so a node that stops before it first renews the lease leaves a
 * task that fails within the lease, not one `working` until its ttl.
 */
export function newTaskRecord(
  call: TaskCall,
  server: string,
  taskId: string,
  now: number,
  { ttlMs, pollIntervalMs, leaseMs }: Pick<ResolvedMcpTasksOptions, 'ttlMs' | 'pollIntervalMs' | 'leaseMs'>,
): McpTaskRecord {
  const at = new Date(now).toISOString();
  return {
    taskId,
    owner: call.principal,
    caller: callerOf(call.exchange, call.principal),
    server,
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs,
    pollIntervalMs,
    expiresAt: now + ttlMs,
    leaseExpiresAt: now + leaseMs,
    tool: call.tool.name,
    arguments: call.args,
    protocolVersion: call.exchange.protocolVersion,
    clientCapabilities: { ...call.exchange.clientCapabilities },
  };
}

/**
 * Refuses a call whose task would keep more of the request (its arguments, and the client
 * capabilities a resumed run sees) than `maxBytes` (limits.maxTaskPayloadBytes), before anything
 * runs: -32602, HTTP 400.
 */
export function checkTaskCall(call: TaskCall, maxBytes: number): void {
  checkClientPayload('arguments', call.args, maxBytes);
  checkClientPayload('client capabilities', call.exchange.clientCapabilities, maxBytes);
}
