import { performance } from 'node:perf_hooks';
import { isJsonObject } from '../protocol/is-json-object.js';
import type { JsonRpcId, JsonRpcResponse } from '../protocol/json-rpc.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import type { McpExchange, McpTransportInfo } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import { INVALID_REQUEST_STATE_MESSAGE } from '../mrtr/exceptions/invalid-request-state.exception.js';

/**
 * How one MCP request ended, as observers see it.
 *
 * - `complete`: a result (2025-era pushed flows end here, after their in-process rounds);
 * - `input_required`: a 2026-07-28 round asked the client `inputRequests` questions;
 * - `task`: a tools/call answered with a task (the tasks extension), with its id;
 * - `tool_error`: a tools/call result with `isError: true`;
 * - `protocol_error`: a JSON-RPC error, with its code;
 * - `rejected_request_state`: a retry's requestState was refused (`-32602`, `data.reason`);
 * - `rate_limited`: a JSON-RPC error that travels with HTTP status 429;
 * - `cancelled`: a 2025-era request the client cancelled (no response was sent).
 *
 * @publicApi
 */
export type McpRequestOutcome =
  | { readonly kind: 'complete' }
  | { readonly kind: 'input_required'; readonly inputRequests: number }
  | { readonly kind: 'task'; readonly taskId: string }
  | { readonly kind: 'tool_error' }
  | { readonly kind: 'protocol_error'; readonly code: number }
  | { readonly kind: 'rejected_request_state'; readonly reason: string }
  | { readonly kind: 'rate_limited'; readonly code: number }
  | { readonly kind: 'cancelled' };

/** What a trace needs to know of a replay session (ReplaySession satisfies it). */
export interface TracedReplay {
  readonly isRetry: boolean;
  readonly sealedRound?: unknown;
  readonly flowId: string;
}

/**
 * One MCP request while it is being answered: filled in along the way (the principal and the replay
 * session by `MrtrCallRunner.begin`, the outcome at the end) and read by the observers.
 *
 * It travels explicitly, as the `trace` of the request's `McpInbound` — the object the transport
 * hands the dispatcher and every method handler already receives — rather than through a second
 * AsyncLocalStorage or a WeakMap keyed by exchange: the call scope (`mcpCallScope`) only opens inside
 * `MrtrEngine.run`, after the principal was resolved and after a requestState was refused, and one
 * more async context per request would cost on the hot path for nothing an argument cannot carry.
 *
 * @publicApi
 */
export interface McpRequestTrace {
  /** When the request started (ms since the epoch). */
  readonly time: number;
  /** `performance.now()` at the start, for the duration. */
  readonly startedAt: number;
  readonly transport: McpTransportInfo['kind'];
  readonly era: 'modern' | 'legacy';
  /** Null when the request was refused before its id could be read. */
  readonly id: JsonRpcId | null;
  /** Empty when the request was refused before its method could be read. */
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** Tool name or prompt name (`params.name`) or resource URI (`params.uri`). */
  readonly target?: string;
  protocolVersion?: string;
  /** 2025-era sessions: the session's internal id from its sealed claims (never the token). */
  sessionId?: string;
  /** Undefined until resolved (MRTR calls and 2025-era sessions know it early). */
  principal?: string | null;
  /** The call's replay session, for its flow id. */
  replay?: TracedReplay;
  /** The exchange, once established (lets the principal be resolved late). */
  exchange?: McpExchange;
  /** 2025-era input requests pushed to the client so far. */
  pushedInputRequests: number;
  /** Set once the request is answered, before the observers unwind. */
  outcome?: McpRequestOutcome;
  /** Set when the request was refused before dispatch (see `McpAuditEvent.refused`). */
  refused?: { readonly httpStatus?: number };
}

const TARGETED: ReadonlySet<string> = new Set([McpMethod.ToolsCall, McpMethod.PromptsGet, McpMethod.ResourcesRead]);

/** A fresh trace for a request whose id and method are known. */
export function startTrace(
  era: McpRequestTrace['era'],
  transport: McpTransportInfo,
  id: JsonRpcId | null,
  method: string,
  params: Readonly<Record<string, unknown>>,
): McpRequestTrace {
  let target: string | undefined;
  if (TARGETED.has(method)) {
    const name = params['name'] ?? params['uri'];
    if (typeof name === 'string') target = name.slice(0, 512);
  }
  return {
    time: Date.now(),
    startedAt: performance.now(),
    transport: transport.kind,
    era,
    id,
    method,
    params,
    target,
    pushedInputRequests: 0,
  };
}

/** The flow id of a call that is part of a flow (it carried a requestState, or asked a question). */
export function flowIdOf(trace: McpRequestTrace): string | undefined {
  const replay = trace.replay;
  return replay && (replay.isRetry || replay.sealedRound) ? replay.flowId : undefined;
}

/** Reads the outcome off the response; `status` is the HTTP status the error travels with, if known. */
export function outcomeOfResponse(response: JsonRpcResponse | undefined, status?: number): McpRequestOutcome {
  if (response === undefined) return CANCELLED;
  if ('error' in response) {
    const { code, message, data } = response.error;
    if (status === 429) return { kind: 'rate_limited', code };
    if (
      code === McpErrorCode.InvalidParams &&
      message === INVALID_REQUEST_STATE_MESSAGE &&
      isJsonObject(data) &&
      typeof data['reason'] === 'string'
    ) {
      return { kind: 'rejected_request_state', reason: data['reason'] };
    }
    return { kind: 'protocol_error', code };
  }
  const result = response.result;
  if (result['resultType'] === 'input_required') {
    const requests = result['inputRequests'];
    return { kind: 'input_required', inputRequests: isJsonObject(requests) ? Object.keys(requests).length : 0 };
  }
  if (result['resultType'] === 'task') return { kind: 'task', taskId: String(result['taskId']) };
  return result['isError'] === true ? TOOL_ERROR : COMPLETE;
}

const COMPLETE: McpRequestOutcome = { kind: 'complete' };
const TOOL_ERROR: McpRequestOutcome = { kind: 'tool_error' };
const CANCELLED: McpRequestOutcome = { kind: 'cancelled' };
/** What a request that threw past the dispatcher (an HTTP auth challenge, a bug) counts as. */
export const INTERNAL_OUTCOME: McpRequestOutcome = { kind: 'protocol_error', code: McpErrorCode.InternalError };
