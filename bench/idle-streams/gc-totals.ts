// GC time in a server of bench/idle-streams.ts, so that a latency round can say how much of it the
// collector took: Node's `gc` performance entries, summed since the process started.
import { constants, PerformanceObserver } from 'node:perf_hooks';

export interface GcTotals {
  major: number;
  majorMs: number;
  other: number;
  otherMs: number;
}

const totals: GcTotals = { major: 0, majorMs: 0, other: 0, otherMs: 0 };

/** Starts counting (once per process). */
export function watchGc(): void {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as unknown as { detail?: { kind?: number } };
      const major = detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
      if (major) {
        totals.major++;
        totals.majorMs += entry.duration;
      } else {
        totals.other++;
        totals.otherMs += entry.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
}

export const gcTotals = (): GcTotals => ({ ...totals });
