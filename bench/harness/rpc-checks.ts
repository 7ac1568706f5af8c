/**
 * The JSON-RPC side of the fixed workloads: the modern request (headers + `_meta` envelope) and
 * the checks of an answer (a text result, a tool list, an `input_required` round of an MRTR flow).
 */
import { ADD_TOOL, CONFIRM_ADD_TOOL, PROTOCOL_VERSION, REQUEST_ENVELOPE } from '../shared/bench-spec.js';
import type { FixedRequest } from './load.js';

interface RpcAnswer {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly result?: Record<string, unknown>;
  readonly error?: { code?: unknown; message?: unknown };
}

const ACCEPT = 'application/json, text/event-stream';

export function modernRequest(method: string, params: Record<string, unknown>, name?: string): FixedRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-protocol-version': PROTOCOL_VERSION,
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: REQUEST_ENVELOPE } });
  return { headers, body };
}

/** The id a check expects: 1 for the fixed modern requests, any string for the legacy ones (fresh per request). */
export type ExpectedId = 1 | 'any-string';

/** Common JSON-RPC checks; returns the result object or a problem description. */
export function rpcResult(
  status: number,
  message: unknown,
  expectedId: ExpectedId = 1,
): Record<string, unknown> | string {
  if (status !== 200) return `HTTP ${status}`;
  if (typeof message !== 'object' || message === null) return 'body is not a JSON-RPC message';
  const answer = message as RpcAnswer;
  const idOk = expectedId === 1 ? answer.id === 1 : typeof answer.id === 'string' && answer.id.length > 0;
  if (answer.jsonrpc !== '2.0' || !idOk)
    return `not a JSON-RPC 2.0 answer to id ${expectedId === 1 ? '1' : '"[<id>]"'}`;
  if (answer.error) return `JSON-RPC error ${String(answer.error.code)}: ${String(answer.error.message)}`;
  if (typeof answer.result !== 'object' || answer.result === null) return 'no result';
  return answer.result;
}

export function checkTextResult(
  status: number,
  message: unknown,
  expected: string,
  expectedId: ExpectedId = 1,
): string | null {
  const result = rpcResult(status, message, expectedId);
  if (typeof result === 'string') return result;
  if (expectedId === 'any-string' && 'resultType' in result)
    return 'a 2025-era result carries resultType (a 2026-07-28 field)';
  if (result['resultType'] !== undefined && result['resultType'] !== 'complete') {
    return `resultType is ${String(result['resultType'])}, expected complete`;
  }
  if (result['isError'] === true) return `tool error: ${JSON.stringify(result['content'])}`;
  const content = result['content'] as Array<{ type?: unknown; text?: unknown }> | undefined;
  const first = Array.isArray(content) ? content[0] : undefined;
  if (first?.type !== 'text' || first.text !== expected) {
    return `expected text "${expected}", got ${JSON.stringify(content)}`;
  }
  return null;
}

export function checkList(status: number, message: unknown, expectedCount: number): string | null {
  const result = rpcResult(status, message);
  if (typeof result === 'string') return result;
  const tools = result['tools'] as Array<{ name?: unknown; inputSchema?: { type?: unknown } }> | undefined;
  if (!Array.isArray(tools)) return 'result.tools is not an array';
  if (tools.length !== expectedCount) return `expected ${expectedCount} tools, got ${tools.length}`;
  const names = new Set(tools.map((t) => t.name));
  for (const name of [ADD_TOOL.name, CONFIRM_ADD_TOOL.name]) {
    if (!names.has(name)) return `tool ${name} is not listed`;
  }
  if (tools.some((t) => t.inputSchema?.type !== 'object')) return 'a tool has no object inputSchema';
  return null;
}

/** What an `input_required` first round of `confirm_add` must look like; returns its parts. */
export function inputRequiredParts(
  status: number,
  message: unknown,
): { key: string; requestState: string; requestedSchema: Record<string, unknown> } | string {
  const result = rpcResult(status, message);
  if (typeof result === 'string') return result;
  if (result['resultType'] !== 'input_required')
    return `resultType is ${String(result['resultType'])}, expected input_required`;
  const requests = result['inputRequests'] as
    Record<string, { method?: unknown; params?: Record<string, unknown> }> | undefined;
  const keys = requests ? Object.keys(requests) : [];
  if (keys.length !== 1) return `expected exactly one inputRequest, got ${keys.length}`;
  const key = keys[0]!;
  const embedded = requests![key]!;
  if (embedded.method !== 'elicitation/create') return `inputRequest ${key} is ${String(embedded.method)}`;
  const requestState = result['requestState'];
  if (typeof requestState !== 'string' || requestState.length === 0) return 'no requestState';
  const requestedSchema = embedded.params?.['requestedSchema'];
  if (typeof requestedSchema !== 'object' || requestedSchema === null) return 'elicitation has no requestedSchema';
  return { key, requestState, requestedSchema: requestedSchema as Record<string, unknown> };
}

/** Accepts the elicitation: every boolean field true, any other field left out. */
export function acceptingAnswer(requestedSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (requestedSchema['properties'] ?? {}) as Record<string, { type?: unknown }>;
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'boolean') content[name] = true;
  }
  return { action: 'accept', content };
}
