/**
 * The measured loop of the custom round workloads (the 2025-era elicitation round, the MRTR
 * flows): N workers each run rounds back to back until the time is up; the rounds in flight then
 * finish and count, and the elapsed time includes them. A round that went wrong is counted by its
 * outcome (a wrong answer as a mismatch, a non-2xx status as non2xx, a socket error as an error, a
 * round over the timeout as a timeout); only the right ones give latencies.
 */
import type { LoadResult, LoadSettings } from './load.js';

export type Outcome = 'ok' | 'mismatch' | 'non2xx' | 'error' | 'timeout';

export interface RoundOutcome {
  readonly outcome: Outcome;
  readonly latencyMs: number;
}

/** A probe round: null when right, else the problem; the size and text of the call's stream. */
export interface RoundProbe {
  readonly problem: string | null;
  readonly bytes: number;
  readonly raw: string;
  /** An MRTR flow's probe: the characters of the requestState each round returned, in order. */
  readonly tokenChars?: readonly number[];
}

export interface RoundDriver {
  /** Set when the server runs the legacy era without sessions. */
  readonly note?: string;
  probe(): Promise<RoundProbe>;
  warmUp(settings: LoadSettings): Promise<void>;
  measure(settings: LoadSettings): Promise<LoadResult>;
  close(): void;
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Runs `round` on every worker, back to back, for `durationSec`; the load figures per round. */
export async function runRoundsFor<W>(
  workers: readonly W[],
  durationSec: number,
  round: (worker: W) => Promise<RoundOutcome>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const counts: Record<Outcome, number> = { ok: 0, mismatch: 0, non2xx: 0, error: 0, timeout: 0 };
  const started = process.hrtime.bigint();
  const deadline = Date.now() + durationSec * 1000;
  await Promise.all(
    workers.map(async (worker) => {
      while (Date.now() < deadline) {
        const result = await round(worker);
        counts[result.outcome]++;
        if (result.outcome === 'ok') latencies.push(result.latencyMs);
        // A worker whose connection broke pauses briefly instead of spinning on errors.
        if (result.outcome === 'error') await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }),
  );
  const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = Float64Array.from(latencies).sort();
  const responses = counts.ok + counts.mismatch + counts.non2xx;
  return {
    rps: responses / elapsedSec,
    responses,
    elapsedSec,
    latencyMs: {
      mean: latencies.length > 0 ? latencies.reduce((a, b) => a + b, 0) / latencies.length : Number.NaN,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      p99: percentile(sorted, 0.99),
      max: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    },
    non2xx: counts.non2xx,
    errors: counts.error,
    timeouts: counts.timeout,
    mismatches: counts.mismatch,
  };
}
