/**
 * The target checks that are not a plain ratio of two cells (report.ts has those): a cost bound
 * in microseconds ("a retry <= a tools/call + 30 us"), an absolute bound ("tools/list 500 <= 150
 * us"), a ratio that must hold in every round (the worst round's), and the MRTR flow figures (the
 * last round alone against the first, and the token growth per answer).
 */
import type { Cell, CheckOutcome } from './cells.js';
import { TARGETS, type TargetId } from './targets.js';
import type { WorkloadId } from './workload-types.js';

const cellOf = (cells: readonly Cell[], target: TargetId, workload: WorkloadId) =>
  cells.find((c) => c.target === target && c.workload === workload && c.status === 'ok');

const cpuOf = (cells: readonly Cell[], target: TargetId, workload: WorkloadId) => {
  const cpu = cellOf(cells, target, workload)?.serverCpuUsPerRequest;
  return cpu !== undefined && cpu > 0 ? cpu : undefined;
};

const us = (n: number) => `${Math.round(n).toLocaleString('en-US')} us`;
const labelOf = (id: TargetId) => TARGETS.find((t) => t.id === id)?.label ?? id;

/** The issue's retry bound: a retry with a fresh token costs at most a plain call plus this. */
export const RETRY_MAX_EXTRA_US = 30;
/** The issue's bound on one 500-tool tools/list. */
export const LIST_500_MAX_CPU_US = 150;
/** The issue's bound: the 8-round flow's last round alone costs at most this times its first. */
export const LAST_ROUND_MAX_VS_FIRST = 1.5;

const ADAPTERS = [
  { name: 'Fastify', id: 'mocapi-fastify' },
  { name: 'Express', id: 'mocapi-express' },
] as const satisfies ReadonlyArray<{ name: string; id: TargetId }>;

function retryExtra(cells: readonly Cell[], name: string, id: TargetId, bounded: boolean): CheckOutcome {
  const label = `${name}: retry (fresh token) <= tools/call + ${RETRY_MAX_EXTRA_US} us server CPU`;
  const retry = cpuOf(cells, id, 'mrtr-fresh');
  const call = cpuOf(cells, id, 'call');
  if (retry === undefined || call === undefined) return { label, verdict: 'n/a' };
  const extra = retry - call;
  const detail = `${us(retry)} - ${us(call)} = ${extra < 0 ? '-' : '+'}${us(Math.abs(extra))}`;
  return { label, verdict: bounded ? (extra <= RETRY_MAX_EXTRA_US ? 'PASS' : 'FAIL') : 'info', detail };
}

function listBound(cells: readonly Cell[], name: string, id: TargetId): CheckOutcome {
  const label = `${name}: tools/list 500 server CPU/req <= ${LIST_500_MAX_CPU_US} us`;
  const cpu = cpuOf(cells, id, 'list500');
  if (cpu === undefined) return { label, verdict: 'n/a' };
  return { label, verdict: cpu <= LIST_500_MAX_CPU_US ? 'PASS' : 'FAIL', detail: us(cpu) };
}

/** numerator / denominator req/s in each round (the rounds ran interleaved, so round i with round i). */
function everyRound(
  cells: readonly Cell[],
  label: string,
  numerator: readonly [TargetId, WorkloadId],
  denominator: readonly [TargetId, WorkloadId],
  min: number,
): CheckOutcome {
  const num = cellOf(cells, ...numerator)?.rpsPerRound ?? [];
  const den = cellOf(cells, ...denominator)?.rpsPerRound ?? [];
  const ratios = num.slice(0, den.length).flatMap((rps, i) => (den[i]! > 0 ? [rps / den[i]!] : []));
  if (ratios.length === 0) return { label, verdict: 'n/a' };
  const worst = Math.min(...ratios);
  const detail = `worst round ${worst.toFixed(2)}x (rounds: ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')})`;
  return { label, verdict: worst >= min ? 'PASS' : 'FAIL', ratio: worst, detail };
}

function lastVsFirst(cells: readonly Cell[], name: string, id: TargetId, bounded: boolean): CheckOutcome {
  const label = `${name}: 8-round flow, last round alone <= ${LAST_ROUND_MAX_VS_FIRST}x its first (server CPU/req)`;
  const first = cpuOf(cells, id, 'flow8-r1');
  const last = cpuOf(cells, id, 'flow8-r8');
  if (first === undefined || last === undefined) return { label, verdict: 'n/a' };
  const ratio = last / first;
  const verdict = bounded ? (ratio <= LAST_ROUND_MAX_VS_FIRST ? 'PASS' : 'FAIL') : 'info';
  return { label, verdict, ratio, detail: `${us(last)} / ${us(first)} = ${ratio.toFixed(2)}x` };
}

/** requestState growth per answer: (chars after the last asking round - after the first) / answers between. */
function tokenGrowth(cells: readonly Cell[], id: TargetId): CheckOutcome {
  const label = `${labelOf(id)}: requestState growth per answer (8-round flow)`;
  const chars = cellOf(cells, id, 'flow8')?.tokenChars;
  if (!chars || chars.length < 2) return { label, verdict: 'n/a' };
  const perAnswer = (chars[chars.length - 1]! - chars[0]!) / (chars.length - 1);
  const detail = `+${perAnswer.toFixed(1)} chars per answer (${chars[0]} chars with 0 answers, ${chars[chars.length - 1]} with ${chars.length - 1})`;
  return { label, verdict: 'info', detail };
}

export function evaluateCostChecks(cells: readonly Cell[]): CheckOutcome[] {
  return [
    ...ADAPTERS.map(({ name, id }) => retryExtra(cells, name, id, name === 'Fastify')),
    ...ADAPTERS.map(({ name, id }) => listBound(cells, name, id)),
    everyRound(
      cells,
      'Fastify 2025-era tools/call (session) >= 4x MCP-Nest in every round',
      ['mocapi-fastify', 'legacy-call'],
      ['mcp-nest', 'legacy-call'],
      4,
    ),
    ...ADAPTERS.map(({ name, id }) => lastVsFirst(cells, name, id, true)),
    lastVsFirst(cells, 'SDK', 'sdk', false),
    tokenGrowth(cells, 'mocapi-fastify'),
    tokenGrowth(cells, 'sdk'),
  ];
}
