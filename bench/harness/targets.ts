/** The servers under test, in the order they run, and the workloads each one can serve. */
import { fileURLToPath } from 'node:url';

import { WORKLOAD_IDS, type WorkloadId } from './workloads.js';

export type TargetId = 'bare' | 'mocapi-fastify' | 'mocapi-express' | 'mcp-nest' | 'sdk' | 'sdk-parsed';

export interface Target {
  readonly id: TargetId;
  readonly label: string;
  /** Compiled server entry (dist/bench/servers/*.js). */
  readonly script: string;
  readonly env: Readonly<Record<string, string>>;
  /** Workloads it serves; the others print as n/a. */
  readonly workloads: readonly WorkloadId[];
  /** Why some workloads are n/a. */
  readonly note?: string;
  /** Why a given workload is n/a, where it differs from `note`. */
  readonly notes?: Partial<Record<WorkloadId, string>>;
  /**
   * Extra server env for some workloads: they run on their own server instance (as the TOOLS=500
   * list does), after the others, so the other workloads' server stays as it was.
   */
  readonly workloadEnv?: Partial<Record<WorkloadId, Readonly<Record<string, string>>>>;
  /** Run by default (without --only). */
  readonly byDefault: boolean;
}

const script = (name: string): string => fileURLToPath(new URL(`../servers/${name}.js`, import.meta.url));

/** Every workload: our servers serve them all; peers leave out what they cannot serve. */
const ALL: readonly WorkloadId[] = WORKLOAD_IDS;

const LEGACY_NOT_IN_BARE = 'the ceiling has no 2025-era sessions';
/** The SDK's default legacy leg (`legacy: 'stateless'`) answers each 2025 request on a fresh per-request transport. */
const SDK_NO_PUSH = "its legacy: 'stateless' leg cannot push elicitation/create: confirm_add answers isError";

export const TARGETS: readonly Target[] = [
  {
    id: 'bare',
    label: 'bare node:http',
    script: script('bare-node'),
    env: {},
    workloads: ['call', 'list10', 'list500'],
    note: 'fixed precomputed results; no MRTR',
    notes: { 'legacy-call': LEGACY_NOT_IN_BARE, 'legacy-elicit': LEGACY_NOT_IN_BARE },
    byDefault: true,
  },
  {
    id: 'mocapi-fastify',
    label: 'ours, Fastify',
    script: script('mocapi-fastify'),
    env: {},
    workloads: ALL,
    byDefault: true,
  },
  {
    id: 'mocapi-express',
    label: 'ours, Express',
    script: script('mocapi-express'),
    env: {},
    workloads: ALL,
    byDefault: true,
  },
  {
    id: 'mcp-nest',
    label: '@rekog/mcp-nest 2.0.5',
    script: script('mcp-nest'),
    env: {},
    workloads: ['call', 'list10', 'list500', 'legacy-call', 'legacy-elicit'],
    note: 'no MRTR in 2.0.5',
    // Sessions (and so elicitation) need statefulMode; it changes only the 2025-era leg.
    workloadEnv: { 'legacy-call': { MCP_NEST_STATEFUL: '1' }, 'legacy-elicit': { MCP_NEST_STATEFUL: '1' } },
    byDefault: true,
  },
  {
    id: 'sdk',
    label: 'SDK v2 createMcpHandler',
    script: script('sdk-v2'),
    env: {},
    workloads: ALL.filter((w) => w !== 'legacy-elicit'),
    notes: { 'legacy-elicit': SDK_NO_PUSH },
    byDefault: true,
  },
  {
    id: 'sdk-parsed',
    label: 'SDK v2, parsedBody',
    script: script('sdk-v2'),
    env: { SDK_PARSED_BODY: '1' },
    workloads: ALL.filter((w) => w !== 'legacy-elicit'),
    note: 'opt-in: the SDK handed a pre-parsed body',
    notes: { 'legacy-elicit': SDK_NO_PUSH },
    byDefault: false,
  },
];

export function selectTargets(only: readonly string[] | undefined): Target[] {
  if (!only || only.length === 0) return TARGETS.filter((t) => t.byDefault);
  const unknown = only.filter((id) => !TARGETS.some((t) => t.id === id));
  if (unknown.length > 0) {
    throw new Error(`unknown target(s) ${unknown.join(', ')}; known: ${TARGETS.map((t) => t.id).join(', ')}`);
  }
  return TARGETS.filter((t) => only.includes(t.id));
}
