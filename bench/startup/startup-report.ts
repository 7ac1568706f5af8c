/** Medians, ranges and the "ours − bare Nest" differences of `npm run bench:startup`, as Markdown. */
import type { StartupSample } from './startup-probe.js';
import { startupTargets, type Adapter } from './startup-targets.js';

/** The goal of issue 29: startup with 500 tools at most this much beyond a bare Nest app. */
export const TARGET_EXTRA_MS = 1000;

export interface NodeRun {
  readonly node: string;
  readonly runs: number;
  /** Our tool counts (`--tools`). */
  readonly toolCounts: readonly number[];
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
export function extraMs(run: NodeRun, adapter: Adapter, tools: number, figure: Figure = 'totalMs'): number {
  return medianOf(run, `mocapi-${adapter}-${tools}`, figure) - medianOf(run, `nest-${adapter}`, figure);
}

/** The fastest start of ours minus the fastest bare Nest start: the least disturbed pair. */
function extraOfMinimumsMs(run: NodeRun, adapter: Adapter, tools: number): number {
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
  for (const target of startupTargets(run.toolCounts)) {
    const figures: Figure[] = ['totalMs', 'listeningMs', 'firstAnswerMs', 'cpuMs', 'mainThreadCpuMs'];
    lines.push(`| ${target.label} | ${figures.map((figure) => cell(run, target.id, figure)).join(' | ')} |`);
  }
  lines.push(
    '',
    'Ours − bare Nest, same adapter, ms: differences of the medians; "fastest" compares the fastest start of each;',
    '"CPU" is the whole child, "main" its main thread, both at the first answer.',
    '',
    '| adapter | tools | spawn → first answer | fastest − fastest | spawn → listening | CPU | main thread CPU | issue 29 target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const adapter of ['fastify', 'express'] as const) {
    for (const tools of run.toolCounts) {
      const extra = extraMs(run, adapter, tools);
      const verdict = tools !== 500 ? '' : extra <= TARGET_EXTRA_MS ? 'met (≤ +1000)' : 'MISSED (≤ +1000)';
      lines.push(
        `| ${adapter} | ${tools} | ${signed(extra)} | ${signed(extraOfMinimumsMs(run, adapter, tools))} | ` +
          `${signed(extraMs(run, adapter, tools, 'listeningMs'))} | ${signed(extraMs(run, adapter, tools, 'cpuMs'))} | ` +
          `${signed(extraMs(run, adapter, tools, 'mainThreadCpuMs'))} | ${verdict} |`,
      );
    }
  }
  return lines.join('\n');
}
