/**
 * The workloads. Most are one fixed request (modern headers + `_meta` envelope) and a check of
 * the JSON-RPC answer, run on a probe request before and after the load so that we never
 * benchmark error responses. The MRTR retry is built from a live first round.
 *
 * The 2025-era ("legacy") workloads speak the 2025 wire on the same endpoint: `legacy-call` is a
 * fixed request on a session opened once before the load (see legacy-session.ts), and
 * `legacy-elicit` is a multi-request round that autocannon cannot drive, run by the custom loop in
 * legacy-rounds.ts.
 */
import {
  ADD_ARGUMENTS,
  ADD_EXPECTED_TEXT,
  ADD_TOOL,
  CONFIRM_ADD_TOOL,
  PROTOCOL_VERSION,
  REQUEST_ENVELOPE,
} from '../shared/bench-spec.js';
import { post, type PostResult } from './http-client.js';
import { prepareRounds, type RoundDriver } from './legacy-rounds.js';
import { openLegacySession, SESSIONLESS_NOTE } from './legacy-session.js';

export type WorkloadId = 'call' | 'list10' | 'list500' | 'mrtr-first' | 'mrtr-retry' | 'legacy-call' | 'legacy-elicit';

export const WORKLOAD_IDS: readonly WorkloadId[] = [
  'call',
  'list10',
  'list500',
  'mrtr-first',
  'mrtr-retry',
  'legacy-call',
  'legacy-elicit',
];

/** A request the load generator repeats verbatim. */
export interface FixedRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * The body holds "[<id>]" as its JSON-RPC id, which each load connection replaces with an id of
   * its own, once. With one request in flight per connection, no two requests in flight on the
   * shared 2025 session have the same id (the SDK's session transport routes answers by id), at no
   * per-request cost to the load generator (autocannon's idReplacement rebuilds every request,
   * which cost a third of the req/s on this 2-core machine). Ids are reused once answered.
   */
  readonly idPerConnection?: boolean;
  /** Something about how the target was driven, printed in the table's note column. */
  readonly note?: string;
}

interface WorkloadBase {
  readonly id: WorkloadId;
  readonly label: string;
  /** TOOLS value of the server instance this workload runs against. */
  readonly tools: number;
}

/** One fixed request, repeated by autocannon. */
export interface FixedWorkload extends WorkloadBase {
  readonly kind: 'fixed';
  /** Builds the fixed request; `url` is the target endpoint (the MRTR retry needs a first round). */
  prepare(url: string): Promise<FixedRequest>;
  /** Returns null when the answer is right, else what is wrong with it. */
  check(status: number, message: unknown): string | null;
}

/** A multi-request round, run by a custom loop of `workers` concurrent workers. */
export interface RoundsWorkload extends WorkloadBase {
  readonly kind: 'rounds';
  prepare(url: string, workers: number): Promise<RoundDriver>;
}

export type Workload = FixedWorkload | RoundsWorkload;

interface RpcAnswer {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly result?: Record<string, unknown>;
  readonly error?: { code?: unknown; message?: unknown };
}

const ACCEPT = 'application/json, text/event-stream';

function modernRequest(method: string, params: Record<string, unknown>, name?: string): FixedRequest {
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
type ExpectedId = 1 | 'any-string';

/** Common JSON-RPC checks; returns the result object or a problem description. */
function rpcResult(status: number, message: unknown, expectedId: ExpectedId = 1): Record<string, unknown> | string {
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

function checkTextResult(
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

function checkList(status: number, message: unknown, expectedCount: number): string | null {
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
function inputRequiredParts(
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
function acceptingAnswer(requestedSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (requestedSchema['properties'] ?? {}) as Record<string, { type?: unknown }>;
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'boolean') content[name] = true;
  }
  return { action: 'accept', content };
}

const callRequest = (): FixedRequest =>
  modernRequest('tools/call', { name: ADD_TOOL.name, arguments: ADD_ARGUMENTS }, ADD_TOOL.name);
const confirmRequest = (extra: Record<string, unknown> = {}): FixedRequest =>
  modernRequest(
    'tools/call',
    { name: CONFIRM_ADD_TOOL.name, arguments: ADD_ARGUMENTS, ...extra },
    CONFIRM_ADD_TOOL.name,
  );
const listRequest = (): FixedRequest => modernRequest('tools/list', {});

/**
 * `tools/call add` in the 2025 wire: no `_meta` envelope, the session's headers, and "[<id>]"
 * as the id so that every request in flight on the shared session has its own id (one per load
 * connection, see FixedRequest.idPerConnection).
 */
async function legacyCallRequest(url: string): Promise<FixedRequest> {
  const session = await openLegacySession(url);
  return {
    headers: session.headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: '[<id>]',
      method: 'tools/call',
      params: { name: ADD_TOOL.name, arguments: ADD_ARGUMENTS },
    }),
    idPerConnection: true,
    ...(session.sessionId === undefined && { note: SESSIONLESS_NOTE }),
  };
}

export const WORKLOADS: Readonly<Record<WorkloadId, Workload>> = {
  call: {
    id: 'call',
    kind: 'fixed',
    label: 'tools/call add',
    tools: 10,
    prepare: async () => callRequest(),
    check: (status, message) => checkTextResult(status, message, ADD_EXPECTED_TEXT),
  },
  list10: {
    id: 'list10',
    kind: 'fixed',
    label: 'tools/list 10',
    tools: 10,
    prepare: async () => listRequest(),
    check: (status, message) => checkList(status, message, 10),
  },
  list500: {
    id: 'list500',
    kind: 'fixed',
    label: 'tools/list 500',
    tools: 500,
    prepare: async () => listRequest(),
    check: (status, message) => checkList(status, message, 500),
  },
  'mrtr-first': {
    id: 'mrtr-first',
    kind: 'fixed',
    label: 'MRTR round 1 (input_required)',
    tools: 10,
    prepare: async () => confirmRequest(),
    check: (status, message) => {
      const parts = inputRequiredParts(status, message);
      return typeof parts === 'string' ? parts : null;
    },
  },
  'mrtr-retry': {
    id: 'mrtr-retry',
    kind: 'fixed',
    label: 'MRTR retry (requestState)',
    tools: 10,
    prepare: async (url) => {
      const first = confirmRequest();
      const answer: PostResult = await post(url, first.headers, first.body);
      const parts = inputRequiredParts(answer.status, answer.message);
      if (typeof parts === 'string') throw new Error(`first round of confirm_add: ${parts}`);
      return confirmRequest({
        inputResponses: { [parts.key]: acceptingAnswer(parts.requestedSchema) },
        requestState: parts.requestState,
      });
    },
    check: (status, message) => checkTextResult(status, message, ADD_EXPECTED_TEXT),
  },
  'legacy-call': {
    id: 'legacy-call',
    kind: 'fixed',
    label: '2025 tools/call add (session)',
    tools: 10,
    prepare: legacyCallRequest,
    check: (status, message) => checkTextResult(status, message, ADD_EXPECTED_TEXT, 'any-string'),
  },
  'legacy-elicit': {
    id: 'legacy-elicit',
    kind: 'rounds',
    label: '2025 elicitation round (per round)',
    tools: 10,
    prepare: prepareRounds,
  },
};
