/**
 * The figures of a run: a measurement per target, workload and round, the cell that aggregates
 * one target × workload over the rounds, and the outcome of a target check. report.ts computes
 * them; cost-checks.ts and the renderers read them.
 */
import type { LoadResult } from './load.js';
import type { TargetId } from './targets.js';
import type { WorkloadId } from './workload-types.js';

export type CellStatus = 'ok' | 'failed' | 'n/a' | 'skipped';

/** One target × workload in one round. */
export interface Measurement {
  readonly target: TargetId;
  readonly workload: WorkloadId;
  readonly round: number;
  readonly status: CellStatus;
  readonly problem?: string;
  /** Size of the response body on the probe. */
  readonly responseBytes?: number;
  /** Server process CPU time (all threads) during the measured run, per response. */
  readonly serverCpuUsPerRequest?: number;
  /** A target with an upstream (a gateway): the upstream process's CPU time in the same run, per response. */
  readonly upstreamCpuUsPerRequest?: number;
  readonly load?: LoadResult;
  /** How the target was driven, when that needs saying (e.g. a 2025-era leg without sessions). */
  readonly note?: string;
  /** An MRTR flow: the characters of the requestState each round returned, on the probe flow. */
  readonly tokenChars?: readonly number[];
}

/** What went wrong under load, summed over every round (a fault in any round counts). */
export interface Faults {
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly mismatches: number;
}

/**
 * Target × workload over all rounds. Each figure is the median of that figure over the rounds
 * (of the two middle rounds' values for an even count), taken on its own: the req/s, p50, p99 and
 * server CPU medians may come from different rounds. Faults and responses are summed.
 */
export interface Cell {
  readonly target: TargetId;
  readonly workload: WorkloadId;
  readonly status: CellStatus;
  readonly problem?: string;
  readonly responseBytes?: number;
  readonly note?: string;
  /** An MRTR flow: the requestState characters after each round (first round that recorded them). */
  readonly tokenChars?: readonly number[];
  /** Median req/s (rounds/s for a round workload); undefined when no round completed a response. */
  readonly rps?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly serverCpuUsPerRequest?: number;
  /** Median of the upstream process's CPU per response (a target with an upstream). */
  readonly upstreamCpuUsPerRequest?: number;
  /** Responses over all rounds. */
  readonly responses: number;
  readonly faults: Faults;
  readonly rpsPerRound: readonly number[];
  readonly cpuPerRound: readonly (number | undefined)[];
  /** A target with an upstream: each round's upstream CPU per response. */
  readonly upstreamCpuPerRound?: readonly (number | undefined)[];
}

export interface CheckOutcome {
  readonly label: string;
  readonly verdict: 'PASS' | 'FAIL' | 'n/a' | 'info';
  readonly ratio?: number;
  /** The figures behind the verdict, printed in place of the ratio (e.g. "186 us - 160 us = +26 us"). */
  readonly detail?: string;
}
