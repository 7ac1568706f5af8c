/**
 * The workloads: each is one fixed request (modern headers + `_meta` envelope) and a check of
 * the JSON-RPC answer, run on a probe request before and after the load so that we never
 * benchmark error responses. The MRTR retry is built from a live first round.
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

export type WorkloadId = 'call' | 'list10' | 'list500' | 'mrtr-first' | 'mrtr-retry';

export const WORKLOAD_IDS: readonly WorkloadId[] = ['call', 'list10', 'list500', 'mrtr-first', 'mrtr-retry'];

/** A request the load generator repeats verbatim. */
export interface FixedRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface Workload {
  readonly id: WorkloadId;
  readonly label: string;
  /** TOOLS value of the server instance this workload runs against. */
  readonly tools: number;
  /** Builds the fixed request; `url` is the target endpoint (the MRTR retry needs a first round). */
  prepare(url: string): Promise<FixedRequest>;
  /** Returns null when the answer is right, else what is wrong with it. */
  check(status: number, message: unknown): string | null;
}

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

/** Common JSON-RPC checks; returns the result object or a problem description. */
function rpcResult(status: number, message: unknown): Record<string, unknown> | string {
  if (status !== 200) return `HTTP ${status}`;
  if (typeof message !== 'object' || message === null) return 'body is not a JSON-RPC message';
  const answer = message as RpcAnswer;
  if (answer.jsonrpc !== '2.0' || answer.id !== 1) return 'not a JSON-RPC 2.0 answer to id 1';
  if (answer.error) return `JSON-RPC error ${String(answer.error.code)}: ${String(answer.error.message)}`;
  if (typeof answer.result !== 'object' || answer.result === null) return 'no result';
  return answer.result;
}

function checkTextResult(status: number, message: unknown, expected: string): string | null {
  const result = rpcResult(status, message);
  if (typeof result === 'string') return result;
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
  if (result['resultType'] !== 'input_required') return `resultType is ${String(result['resultType'])}, expected input_required`;
  const requests = result['inputRequests'] as Record<string, { method?: unknown; params?: Record<string, unknown> }> | undefined;
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
  modernRequest('tools/call', { name: CONFIRM_ADD_TOOL.name, arguments: ADD_ARGUMENTS, ...extra }, CONFIRM_ADD_TOOL.name);
const listRequest = (): FixedRequest => modernRequest('tools/list', {});

export const WORKLOADS: Readonly<Record<WorkloadId, Workload>> = {
  call: {
    id: 'call',
    label: 'tools/call add',
    tools: 10,
    prepare: async () => callRequest(),
    check: (status, message) => checkTextResult(status, message, ADD_EXPECTED_TEXT),
  },
  list10: {
    id: 'list10',
    label: 'tools/list 10',
    tools: 10,
    prepare: async () => listRequest(),
    check: (status, message) => checkList(status, message, 10),
  },
  list500: {
    id: 'list500',
    label: 'tools/list 500',
    tools: 500,
    prepare: async () => listRequest(),
    check: (status, message) => checkList(status, message, 500),
  },
  'mrtr-first': {
    id: 'mrtr-first',
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
};
