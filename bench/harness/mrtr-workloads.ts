/**
 * The MRTR workloads beyond the single replayed retry: `mrtr-fresh` (the completing retry of
 * `confirm_add`, a fresh token per request), the whole flows of `confirm_steps` with 1, 2, 4 and 8
 * questions (`flowN`, run by flow-rounds.ts, per flow), and round k alone of the 8-question flow
 * (`flow8-rK`, fresh tokens prefetched at that depth), which gives the engine's cost per round.
 */
import { ADD_EXPECTED_TEXT, CONFIRM_ADD_TOOL } from '../shared/bench-spec.js';
import { prepareFlows, stepsCall } from './flow-rounds.js';
import { checkTextResult, inputRequiredParts } from './rpc-checks.js';
import { distinctPair, prefetchRetries } from './token-pool.js';
import {
  FLOW_DEPTHS,
  FLOW_STEPS,
  type FixedWorkload,
  type MrtrWorkloadId,
  type PrepareContext,
  type RoundsWorkload,
} from './workload-types.js';

/** Tokens prefetched for `mrtr-fresh` (a twentieth with --smoke). */
export const FRESH_POOL = 10_000;
/** Tokens prefetched for each `flow8-rK` (a twentieth with --smoke); each costs k requests to make. */
export const DEPTH_POOL = 2_000;
/** The flow whose rounds are measured alone (`flow8-rK`). */
export const DEPTH_FLOW_STEPS = 8;

const poolSize = (full: number, context: PrepareContext) => (context.smoke ? full / 20 : full);
const poolNote = (size: number) =>
  `${size.toLocaleString('en-US')} prefetched tokens, each resent only after the ${(size - 1).toLocaleString('en-US')} others`;

const mrtrFresh: FixedWorkload = {
  id: 'mrtr-fresh',
  kind: 'fixed',
  label: 'MRTR retry (fresh token per request)',
  tools: 10,
  prepare: async (url, context) => {
    const size = poolSize(FRESH_POOL, context);
    const request = await prefetchRetries(url, size, 1, (i) => ({
      name: CONFIRM_ADD_TOOL.name,
      args: distinctPair(i),
    }));
    return { ...request, note: poolNote(size) };
  },
  check: (status, message) => checkTextResult(status, message, ADD_EXPECTED_TEXT),
};

function flowWorkload(steps: (typeof FLOW_STEPS)[number]): RoundsWorkload {
  return {
    id: `flow${steps}`,
    kind: 'rounds',
    label: `MRTR flow of ${steps} round${steps === 1 ? '' : 's'} (per flow)`,
    tools: 10,
    prepare: (url, workers) => prepareFlows(url, workers, steps),
  };
}

/** Round `depth` of the 8-question flow alone: the retry answering question `depth`. */
function depthWorkload(depth: (typeof FLOW_DEPTHS)[number]): FixedWorkload {
  const completes = depth === DEPTH_FLOW_STEPS;
  return {
    id: `flow8-r${depth}`,
    kind: 'fixed',
    label: `MRTR flow of 8, round ${depth} alone${completes ? ' (completes)' : ''}`,
    tools: 10,
    prepare: async (url, context) => {
      const size = poolSize(DEPTH_POOL, context);
      const request = await prefetchRetries(url, size, depth, (i) => stepsCall(DEPTH_FLOW_STEPS, distinctPair(i)));
      return { ...request, note: poolNote(size) };
    },
    check: (status, message) => {
      if (completes) return checkTextResult(status, message, ADD_EXPECTED_TEXT);
      const parts = inputRequiredParts(status, message);
      return typeof parts === 'string' ? parts : null;
    },
  };
}

export const MRTR_WORKLOADS = {
  'mrtr-fresh': mrtrFresh,
  flow1: flowWorkload(1),
  flow2: flowWorkload(2),
  flow4: flowWorkload(4),
  flow8: flowWorkload(8),
  'flow8-r1': depthWorkload(1),
  'flow8-r2': depthWorkload(2),
  'flow8-r4': depthWorkload(4),
  'flow8-r8': depthWorkload(8),
} as const satisfies Record<MrtrWorkloadId, FixedWorkload | RoundsWorkload>;
