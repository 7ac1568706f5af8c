/** The servers under test, in the order they run, and the workloads each one can serve. */
import { fileURLToPath } from 'node:url';

import type { WorkloadId } from './workloads.js';

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
  /** Run by default (without --only). */
  readonly byDefault: boolean;
}

const script = (name: string): string => fileURLToPath(new URL(`../servers/${name}.js`, import.meta.url));

const ALL: readonly WorkloadId[] = ['call', 'list10', 'list500', 'mrtr-first', 'mrtr-retry'];

export const TARGETS: readonly Target[] = [
  {
    id: 'bare',
    label: 'bare node:http',
    script: script('bare-node'),
    env: {},
    workloads: ['call', 'list10', 'list500'],
    note: 'fixed precomputed results; no MRTR',
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
    workloads: ['call', 'list10', 'list500'],
    note: 'no MRTR in 2.0.5',
    byDefault: true,
  },
  {
    id: 'sdk',
    label: 'SDK v2 createMcpHandler',
    script: script('sdk-v2'),
    env: {},
    workloads: ALL,
    byDefault: true,
  },
  {
    id: 'sdk-parsed',
    label: 'SDK v2, parsedBody',
    script: script('sdk-v2'),
    env: { SDK_PARSED_BODY: '1' },
    workloads: ALL,
    note: 'opt-in: the SDK handed a pre-parsed body',
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
