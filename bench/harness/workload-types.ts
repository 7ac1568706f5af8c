/**
 * What a workload is: its id, and its kind (one fixed request repeated by autocannon, or a
 * multi-request round run by a custom loop). workloads.ts and mrtr-workloads.ts define the
 * workloads; everything that only names one imports its id from here.
 */
import type { FixedRequest } from './load.js';
import type { RoundDriver } from './round-loop.js';

/** The MRTR flow lengths measured, and the rounds of the 8-question flow measured alone. */
export const FLOW_STEPS = [1, 2, 4, 8] as const;
export const FLOW_DEPTHS = [1, 2, 4, 8] as const;

export type FlowId = `flow${(typeof FLOW_STEPS)[number]}`;
export type DepthId = `flow8-r${(typeof FLOW_DEPTHS)[number]}`;
export type MrtrWorkloadId = 'mrtr-fresh' | FlowId | DepthId;

export type ListWorkloadId = 'list10' | 'list100' | 'list500' | 'list2000';
export type WorkloadId =
  'call' | ListWorkloadId | 'mrtr-first' | 'mrtr-retry' | MrtrWorkloadId | 'legacy-call' | 'legacy-elicit';

/** What a workload's preparation may depend on. */
export interface PrepareContext {
  /** A --smoke run: prefetched pools are a twentieth of their size. */
  readonly smoke: boolean;
  /** The target's Target.toolPrefix: `call` calls `<prefix>_add` (a gateway's name for its upstream's add). */
  readonly toolPrefix?: string;
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
  prepare(url: string, context: PrepareContext): Promise<FixedRequest>;
  /** Returns null when the answer is right, else what is wrong with it. */
  check(status: number, message: unknown): string | null;
}

/** A multi-request round, run by a custom loop of `workers` concurrent workers. */
export interface RoundsWorkload extends WorkloadBase {
  readonly kind: 'rounds';
  prepare(url: string, workers: number): Promise<RoundDriver>;
}

export type Workload = FixedWorkload | RoundsWorkload;
