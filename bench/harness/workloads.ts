/**
 * The workloads. Most are one fixed request (modern headers + `_meta` envelope) and a check of
 * the JSON-RPC answer, run on a probe request before and after the load so that we never
 * benchmark error responses. The MRTR retry is built from a live first round; the MRTR workloads
 * with fresh tokens and whole flows are in mrtr-workloads.ts.
 *
 * The 2025-era ("legacy") workloads speak the 2025 wire on the same endpoint: `legacy-call` is a
 * fixed request on a session opened once before the load (see legacy-session.ts), and
 * `legacy-elicit` is a multi-request round that autocannon cannot drive, run by the custom loop in
 * legacy-rounds.ts.
 */
import { ADD_ARGUMENTS, ADD_EXPECTED_TEXT, ADD_TOOL, CONFIRM_ADD_TOOL } from '../shared/bench-spec.js';
import { post, type PostResult } from './http-client.js';
import type { FixedRequest } from './load.js';
import { prepareRounds } from './legacy-rounds.js';
import { openLegacySession, SESSIONLESS_NOTE } from './legacy-session.js';
import { MRTR_WORKLOADS } from './mrtr-workloads.js';
import { acceptingAnswer, checkList, checkTextResult, inputRequiredParts, modernRequest } from './rpc-checks.js';
import type { FixedWorkload, ListWorkloadId, PrepareContext, Workload, WorkloadId } from './workload-types.js';

export const WORKLOAD_IDS: readonly WorkloadId[] = [
  'call',
  'list10',
  'list100',
  'list500',
  'list2000',
  'mrtr-first',
  'mrtr-retry',
  'mrtr-fresh',
  'flow1',
  'flow2',
  'flow4',
  'flow8',
  'flow8-r1',
  'flow8-r2',
  'flow8-r4',
  'flow8-r8',
  'legacy-call',
  'legacy-elicit',
];

/**
 * What `--smoke` leaves out unless asked for with --workloads, to keep its time: it keeps each kind
 * of workload (lists of 10, 100 and 500 tools, the fresh-token retry, the 8-round flow, its first
 * and last round alone); a 2,000-tool server alone takes seconds to start.
 */
export const SKIPPED_IN_SMOKE: readonly WorkloadId[] = ['list2000', 'flow1', 'flow2', 'flow4', 'flow8-r2', 'flow8-r4'];
export const SMOKE_WORKLOAD_IDS: readonly WorkloadId[] = WORKLOAD_IDS.filter((w) => !SKIPPED_IN_SMOKE.includes(w));

/** `tools/call add`, or `<prefix>_add` on a target that serves it under a prefix (a gateway). */
function callRequest(context: PrepareContext): FixedRequest {
  const name = context.toolPrefix === undefined ? ADD_TOOL.name : `${context.toolPrefix}_${ADD_TOOL.name}`;
  return modernRequest('tools/call', { name, arguments: ADD_ARGUMENTS }, name);
}
const confirmRequest = (extra: Record<string, unknown> = {}): FixedRequest =>
  modernRequest(
    'tools/call',
    { name: CONFIRM_ADD_TOOL.name, arguments: ADD_ARGUMENTS, ...extra },
    CONFIRM_ADD_TOOL.name,
  );
const listRequest = (): FixedRequest => modernRequest('tools/list', {});

/** From this many tools on, a list answer may take longer than the default timeout on the peers. */
const LONG_LIST = 1000;

/** `tools/list` against the server with `tools` tools (TOOLS env), all on one page. */
function listWorkload(id: ListWorkloadId, tools: number): FixedWorkload {
  return {
    id,
    kind: 'fixed',
    label: `tools/list ${tools}`,
    tools,
    // The peers build a 2,000-tool list in about 0.2 s of CPU, so 10 requests queued take seconds.
    prepare: async () => ({ ...listRequest(), ...(tools >= LONG_LIST && { timeoutSec: 60 }) }),
    check: (status, message) => checkList(status, message, tools),
  };
}

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
    prepare: async (_url, context) => callRequest(context),
    check: (status, message) => checkTextResult(status, message, ADD_EXPECTED_TEXT),
  },
  list10: listWorkload('list10', 10),
  list100: listWorkload('list100', 100),
  list500: listWorkload('list500', 500),
  list2000: listWorkload('list2000', 2000),
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
  ...MRTR_WORKLOADS,
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
