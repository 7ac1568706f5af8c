/** The servers under test, in the order they run, and the workloads each one can serve. */
import { fileURLToPath } from 'node:url';

import { BENCH_PAGE_SIZE, GATEWAY_PREFIX } from '../shared/bench-spec.js';
import type { WorkloadId } from './workload-types.js';
import { WORKLOAD_IDS } from './workloads.js';

export type TargetId =
  | 'bare'
  | 'fastify-route'
  | 'nest-fastify-route'
  | 'nest-express-route'
  | 'mocapi-fastify'
  | 'mocapi-express'
  | 'mocapi-gateway'
  | 'mocapi-gateway-2025'
  | 'mcp-nest'
  | 'mcp-nest-fastify'
  | 'mcp-nest-nest12'
  | 'sdk'
  | 'sdk-default';

export interface Target {
  readonly id: TargetId;
  readonly label: string;
  /** Compiled server entry (dist/bench/servers/*.js). */
  readonly script: string;
  readonly env: Readonly<Record<string, string>>;
  /**
   * A folder (repository-relative) with the target's own package.json and lockfile, installed with
   * `npm ci` when its node_modules is missing or older than its lockfile; the server loads its
   * packages from there (env BENCH_PEER_DIR, see servers/peer-require.ts).
   */
  readonly peerDir?: string;
  /** Workloads it serves; the others print as n/a. */
  readonly workloads: readonly WorkloadId[];
  /** Why some workloads are n/a. */
  readonly note?: string;
  /** Why a given workload is n/a, where it differs from `note`. */
  readonly notes?: Partial<Record<WorkloadId, string>>;
  /** How the target was set up for a given workload it serves, printed in the note column. */
  readonly runNotes?: Partial<Record<WorkloadId, string>>;
  /**
   * Extra server env for some workloads: they run on their own server instance (as the TOOLS=500
   * list does), after the others, so the other workloads' server stays as it was.
   */
  readonly workloadEnv?: Partial<Record<WorkloadId, Readonly<Record<string, string>>>>;
  /** Run by default (without --only). */
  readonly byDefault: boolean;
  /**
   * Serves `tools/call add` only, on purpose (the framework floors, the gateways): the table leaves
   * out its n/a rows.
   */
  readonly callOnly?: boolean;
  /**
   * A second server the harness starts first, on a port of its own, for every instance of the
   * target: the upstream a gateway relays to. The target gets its endpoint as env UPSTREAM_URL,
   * and its CPU is read next to the target's.
   */
  readonly upstream?: Upstream;
  /** Put before the tool the `call` workload calls, with `_`: a gateway serves its upstream's `add` as `up_add`. */
  readonly toolPrefix?: string;
}

export interface Upstream {
  readonly label: string;
  readonly script: string;
  readonly env: Readonly<Record<string, string>>;
  /**
   * The row that measures the upstream's call on its own (the same server and wire, loaded
   * directly): "the upstream's" figures of the gateway's cost line.
   */
  readonly alone: readonly [TargetId, WorkloadId];
}

const script = (name: string): string => fileURLToPath(new URL(`../servers/${name}.js`, import.meta.url));

/** Every workload: our servers serve them all; peers leave out what they cannot serve. */
const ALL: readonly WorkloadId[] = WORKLOAD_IDS;

const LEGACY_NOT_IN_BARE = 'the ceiling has no 2025-era sessions';
/** Both SDK set-ups answer each 2025 request on a fresh per-request transport, which cannot push. */
const SDK_NO_PUSH = 'its stateless 2025-era leg cannot push elicitation/create: confirm_add answers isError';
/** The framework floors answer tools/call add only. */
const FLOOR_NOTE = 'framework floor: tools/call add only';
/** MCP-Nest's own install: @rekog/mcp-nest 2.0.5 on NestJS 11. */
const MCP_NEST_PEER = 'bench/peers/mcp-nest';
const LISTS: readonly WorkloadId[] = ['list10', 'list100', 'list500', 'list2000'];
const MCP_NEST_WORKLOADS: readonly WorkloadId[] = ['call', ...LISTS, 'legacy-call', 'legacy-elicit'];
/** The gateways relay `tools/call add`, the Done-when of issue 43 (a call through the gateway). */
const GATEWAY_NOTE = `a gateway: tools/call add only (its upstream's add, as ${GATEWAY_PREFIX}_add)`;
/** Our default page (1,000 tools) would cut the 2,000-tool list in two. */
const OUR_RUN_NOTES = { list2000: `pageSize ${BENCH_PAGE_SIZE} (default 1000): one page` } as const;
/**
 * Sessions (and so elicitation) need statefulMode; it changes only the 2025-era leg. The plain
 * 2025 call gets JSON answers on its own instance; the elicitation round needs the SSE default.
 */
const MCP_NEST_LEGACY_ENV = {
  'legacy-call': { MCP_NEST_STATEFUL: '1', MCP_NEST_JSON: '1' },
  'legacy-elicit': { MCP_NEST_STATEFUL: '1' },
} as const;

export const TARGETS: readonly Target[] = [
  {
    id: 'bare',
    label: 'bare node:http',
    script: script('bare-node'),
    env: {},
    workloads: ['call', ...LISTS],
    note: 'fixed precomputed results; no MRTR',
    notes: { 'legacy-call': LEGACY_NOT_IN_BARE, 'legacy-elicit': LEGACY_NOT_IN_BARE },
    byDefault: true,
  },
  {
    id: 'fastify-route',
    label: 'bare Fastify route',
    script: script('fastify-route'),
    env: {},
    workloads: ['call'],
    note: FLOOR_NOTE,
    byDefault: true,
    callOnly: true,
  },
  {
    id: 'nest-fastify-route',
    label: 'bare Nest route, Fastify',
    script: script('nest-route'),
    env: { NEST_ROUTE_ADAPTER: 'fastify' },
    workloads: ['call'],
    note: FLOOR_NOTE,
    byDefault: true,
    callOnly: true,
  },
  {
    id: 'nest-express-route',
    label: 'bare Nest route, Express',
    script: script('nest-route'),
    env: { NEST_ROUTE_ADAPTER: 'express' },
    workloads: ['call'],
    note: FLOOR_NOTE,
    byDefault: true,
    callOnly: true,
  },
  {
    id: 'mocapi-fastify',
    label: 'ours, Fastify',
    script: script('mocapi-fastify'),
    env: {},
    workloads: ALL,
    runNotes: OUR_RUN_NOTES,
    byDefault: true,
  },
  {
    id: 'mocapi-express',
    label: 'ours, Express',
    script: script('mocapi-express'),
    env: {},
    workloads: ALL,
    runNotes: OUR_RUN_NOTES,
    byDefault: true,
  },
  {
    id: 'mocapi-gateway',
    label: 'ours as a gateway, Fastify',
    script: script('mocapi-gateway'),
    env: {},
    upstream: {
      label: 'ours, Fastify (mocapi-fastify), 2026-07-28 pinned',
      script: script('mocapi-fastify'),
      env: {},
      alone: ['mocapi-fastify', 'call'],
    },
    toolPrefix: GATEWAY_PREFIX,
    workloads: ['call'],
    note: GATEWAY_NOTE,
    runNotes: { call: `${GATEWAY_PREFIX}_add relayed to ours (Fastify), 2026-07-28 pinned` },
    byDefault: true,
    callOnly: true,
  },
  {
    id: 'mocapi-gateway-2025',
    label: 'ours as a gateway, Fastify, 2025-era upstream',
    script: script('mocapi-gateway'),
    env: { UPSTREAM_ERA: 'legacy' },
    upstream: {
      label: "ours, Fastify (mocapi-fastify), the official client's default: 2025 era",
      script: script('mocapi-fastify'),
      env: {},
      alone: ['mocapi-fastify', 'legacy-call'],
    },
    toolPrefix: GATEWAY_PREFIX,
    workloads: ['call'],
    note: `opt-in; ${GATEWAY_NOTE}`,
    runNotes: { call: `${GATEWAY_PREFIX}_add relayed to ours (Fastify) on 2025-era sessions` },
    byDefault: false,
    callOnly: true,
  },
  {
    id: 'mcp-nest',
    label: '@rekog/mcp-nest 2.0.5, Nest 11 + Express',
    script: script('mcp-nest'),
    env: {},
    peerDir: MCP_NEST_PEER,
    workloads: MCP_NEST_WORKLOADS,
    note: 'no MRTR in 2.0.5',
    workloadEnv: MCP_NEST_LEGACY_ENV,
    byDefault: true,
  },
  {
    id: 'mcp-nest-fastify',
    label: '@rekog/mcp-nest 2.0.5, Nest 11 + Fastify',
    script: script('mcp-nest'),
    env: { MCP_NEST_ADAPTER: 'fastify' },
    peerDir: MCP_NEST_PEER,
    workloads: MCP_NEST_WORKLOADS,
    note: 'no MRTR in 2.0.5',
    workloadEnv: MCP_NEST_LEGACY_ENV,
    byDefault: false,
  },
  {
    id: 'mcp-nest-nest12',
    label: '@rekog/mcp-nest 2.0.5, Nest 12 + Express',
    script: script('mcp-nest'),
    env: {},
    workloads: MCP_NEST_WORKLOADS,
    note: 'no MRTR in 2.0.5',
    workloadEnv: MCP_NEST_LEGACY_ENV,
    byDefault: false,
  },
  {
    id: 'sdk',
    label: 'SDK v2 createMcpHandler, best set-up',
    script: script('sdk-v2'),
    env: { SDK_SETUP: 'best' },
    workloads: ALL.filter((w) => w !== 'legacy-elicit'),
    notes: { 'legacy-elicit': SDK_NO_PUSH },
    byDefault: true,
  },
  {
    id: 'sdk-default',
    label: 'SDK v2 createMcpHandler, defaults',
    script: script('sdk-v2'),
    env: { SDK_SETUP: 'default' },
    workloads: ALL.filter((w) => w !== 'legacy-elicit'),
    note: 'opt-in: every createMcpHandler option at its default',
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
