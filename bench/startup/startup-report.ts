/** Medians, ranges and the "ours − bare Nest" differences of `npm run bench:startup`, as Markdown. */
import type { StartupSample } from './startup-probe.js';
import { STARTUP_TARGETS, type Adapter } from './startup-targets.js';

/** The goal of issue 29: startup with 500 tools at most this much beyond a bare Nest app. */
export const TARGET_EXTRA_MS = 1000;

export interface NodeRun {
  readonly node: string;
  readonly runs: number;
  /** The machine's 1-minute load average before and after the runs (other work slows every start). */
  readonly load: readonly [number, number];
  readonly samples: readonly StartupSample[];
}

type Figure = 'totalMs' | 'listeningMs' | 'firstAnswerMs' | 'cpuMs' | 'mainThreadCpuMs';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function valuesOf(run: NodeRun, target: string, figure: Figure): number[] {
  return run.samples.filter((s) => s.target === target).map((s) => s[figure]);
}

function medianOf(run: NodeRun, target: string, figure: Figure): number {
  return median(valuesOf(run, target, figure));
}

const ms = (value: number): string => (Number.isFinite(value) ? String(Math.round(value)) : 'n/a');
const signed = (value: number): string => (value >= 0 ? `+${ms(value)}` : ms(value));

/** "median (min–max)" of one figure of one target. */
function cell(run: NodeRun, target: string, figure: Figure): string {
  const values = valuesOf(run, target, figure);
  if (values.length === 0) return 'n/a';
  return `${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`;
}

/** Median of ours minus median of the bare Nest route, on one adapter, for one figure. */
export function extraMs(run: NodeRun, adapter: Adapter, tools: 10 | 500, figure: Figure = 'totalMs'): number {
  return medianOf(run, `mocapi-${adapter}-${tools}`, figure) - medianOf(run, `nest-${adapter}`, figure);
}

/** The fastest start of ours minus the fastest bare Nest start: the least disturbed pair. */
function extraOfMinimumsMs(run: NodeRun, adapter: Adapter, tools: 10 | 500): number {
  const fastest = (target: string) => Math.min(...valuesOf(run, target, 'totalMs'));
  return fastest(`mocapi-${adapter}-${tools}`) - fastest(`nest-${adapter}`);
}

export function renderNodeRun(run: NodeRun): string {
  const lines = [
    `### Node ${run.node}: ${run.runs} runs per target, interleaved; median (min–max), ms`,
    '',
    `Load average (1 min) ${run.load[0].toFixed(2)} before, ${run.load[1].toFixed(2)} after.`,
    '',
    '| target | spawn → first answer | spawn → listening | listening → first answer | child CPU at first answer | main thread CPU |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const target of STARTUP_TARGETS) {
    lines.push(
      `| ${target.label} | ${cell(run, target.id, 'totalMs')} | ${cell(run, target.id, 'listeningMs')} | ` +
        `${cell(run, target.id, 'firstAnswerMs')} | ${cell(run, target.id, 'cpuMs')} | ` +
        `${cell(run, target.id, 'mainThreadCpuMs')} |`,
    );
  }
  lines.push(
    '',
    'Differences of the medians (ms; "fastest" compares the fastest start of each):',
    '',
    '| adapter | ours 10 − bare Nest | ours 500 − bare Nest | 500, fastest − fastest | 500, before listening | CPU: ours 10 − bare | CPU: ours 500 − bare | main thread CPU: ours 500 − bare | target: 500 ≤ +1000 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const adapter of ['fastify', 'express'] as const) {
    const extra500 = extraMs(run, adapter, 500);
    lines.push(
      `| ${adapter} | ${signed(extraMs(run, adapter, 10))} | ${signed(extra500)} | ` +
        `${signed(extraOfMinimumsMs(run, adapter, 500))} | ${signed(extraMs(run, adapter, 500, 'listeningMs'))} | ` +
        `${signed(extraMs(run, adapter, 10, 'cpuMs'))} | ${signed(extraMs(run, adapter, 500, 'cpuMs'))} | ` +
        `${signed(extraMs(run, adapter, 500, 'mainThreadCpuMs'))} | ` +
        `${extra500 <= TARGET_EXTRA_MS ? 'met' : 'MISSED'} |`,
    );
  }
  return lines.join('\n');
}
