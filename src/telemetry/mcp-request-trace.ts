import { performance } from 'node:perf_hooks';
import { isJsonObject } from '../protocol/is-json-object.js';
import type { JsonRpcId, JsonRpcResponse } from '../protocol/json-rpc.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import { INVALID_REQUEST_STATE_MESSAGE } from '../mrtr/exceptions/invalid-request-state.exception.js';
import type { McpAuditEvent } from './mcp-audit-event.js';
import type { McpRequestObserver } from './mcp-request-observer.js';
import { MAX_TARGET_CHARS } from './mcp-span-conventions.js';

/** The names the package's own code uses for {@link McpRequestObserver.Trace} and `McpAuditEvent.outcome`. */
export type McpRequestTrace = McpRequestObserver.Trace;
export type McpRequestOutcome = McpAuditEvent['outcome'];

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
    if (typeof name === 'string') target = name.slice(0, MAX_TARGET_CHARS);
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
    if (status === 429) return { kind: 'rate_limited', code, message };
    if (
      code === McpErrorCode.InvalidParams &&
      message === INVALID_REQUEST_STATE_MESSAGE &&
      isJsonObject(data) &&
      typeof data['reason'] === 'string'
    ) {
      return { kind: 'rejected_request_state', reason: data['reason'] };
    }
    return { kind: 'protocol_error', code, message };
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
