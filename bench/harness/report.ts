/** Aggregates the measurements of one run, prints the table and the target checks. */
import { evaluateCostChecks } from './cost-checks.js';
import type { Cell, CheckOutcome, Faults, Measurement } from './cells.js';
import type { LoadResult } from './load.js';
import { TARGETS, type TargetId } from './targets.js';
import type { WorkloadId } from './workload-types.js';
import { WORKLOADS, WORKLOAD_IDS } from './workloads.js';

/** The median of the finite values, or undefined when there are none. */
export function median(values: readonly (number | undefined)[]): number | undefined {
  const sorted = values.filter((v): v is number => v !== undefined && Number.isFinite(v)).sort((x, y) => x - y);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const NO_FAULTS: Faults = { non2xx: 0, errors: 0, timeouts: 0, mismatches: 0 };

export function faultCount(faults: Faults): number {
  return faults.non2xx + faults.errors + faults.timeouts + faults.mismatches;
}

export function aggregate(measurements: readonly Measurement[]): Cell[] {
  const cells: Cell[] = [];
  for (const target of TARGETS) {
    for (const workload of WORKLOAD_IDS) {
      const all = measurements.filter((m) => m.target === target.id && m.workload === workload);
      if (all.length === 0) continue;
      const failed = all.find((m) => m.status === 'failed');
      const loaded = all.filter((m): m is Measurement & { load: LoadResult } => m.status === 'ok' && !!m.load);
      if (failed || loaded.length === 0) {
        const first = failed ?? all[0]!;
        cells.push({
          target: target.id,
          workload,
          status: first.status,
          problem: first.problem,
          responses: 0,
          faults: NO_FAULTS,
          rpsPerRound: [],
          cpuPerRound: [],
        });
        continue;
      }
      const responded = loaded.filter((m) => m.load.responses > 0);
      const sum = (pick: (m: LoadResult) => number) => loaded.reduce((acc, m) => acc + pick(m.load), 0);
      cells.push({
        target: target.id,
        workload,
        status: 'ok',
        responseBytes: loaded[0]!.responseBytes,
        note: loaded.find((m) => m.note)?.note,
        tokenChars: loaded.find((m) => m.tokenChars)?.tokenChars,
        // A round in which no response completed counts as 0 req/s; latencies and CPU need responses.
        rps: responded.length > 0 ? median(loaded.map((m) => m.load.rps)) : undefined,
        p50Ms: median(responded.map((m) => m.load.latencyMs.p50)),
        p99Ms: median(responded.map((m) => m.load.latencyMs.p99)),
        serverCpuUsPerRequest: median(responded.map((m) => m.serverCpuUsPerRequest)),
        ...(loaded.some((m) => m.upstreamCpuUsPerRequest !== undefined) && {
          upstreamCpuUsPerRequest: median(responded.map((m) => m.upstreamCpuUsPerRequest)),
          upstreamCpuPerRound: loaded.map((m) => m.upstreamCpuUsPerRequest),
        }),
        responses: sum((l) => l.responses),
        faults: {
          non2xx: sum((l) => l.non2xx),
          errors: sum((l) => l.errors),
          timeouts: sum((l) => l.timeouts),
          mismatches: sum((l) => l.mismatches),
        },
        rpsPerRound: loaded.map((m) => m.load.rps),
        cpuPerRound: loaded.map((m) => m.serverCpuUsPerRequest),
      });
    }
  }
  return cells;
}

function rpsOf(cells: readonly Cell[], target: TargetId, workload: WorkloadId): number | undefined {
  const cell = cells.find((c) => c.target === target && c.workload === workload);
  return cell?.status === 'ok' ? cell.rps : undefined;
}

const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
const fmtMs = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '-');
const fmtRatio = (n: number | undefined) => (n === undefined ? '' : `${n.toFixed(2)}x`);
const fmtPct = (n: number | undefined) => (n === undefined ? '' : `${Math.round(n * 100)}%`);

function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: ReadonlySet<number>,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function targetLabel(id: TargetId): string {
  return TARGETS.find((t) => t.id === id)?.label ?? id;
}

/** Every round's req/s and server CPU/req (+ its upstream's, for a gateway), in the order the rounds ran. */
function perRound(cell: Cell): string {
  return cell.rpsPerRound
    .map((rps, i) => {
      const cpu = cell.cpuPerRound[i];
      const upstream = cell.upstreamCpuPerRound?.[i];
      const upstreamPart = upstream !== undefined ? ` + upstream ${fmtInt(upstream)}` : '';
      return `${fmtInt(rps)}${cpu !== undefined ? ` (${fmtInt(cpu)}${upstreamPart} us)` : ''}`;
    })
    .join(' / ');
}

/** The main table: one row per target × workload, with ratios to the baselines; medians over the rounds. */
export function renderTable(cells: readonly Cell[], markdown = false): string {
  const header = [
    'workload',
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'srv CPU us/req',
    'resp B',
    'vs MCP-Nest',
    'vs SDK',
    'vs bare',
    'note',
  ];
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8, 9]);
  const severalRounds = cells.some((c) => c.rpsPerRound.length > 1);
  if (severalRounds) header.splice(10, 0, 'req/s (srv CPU us/req) per round');
  const rows: string[][] = [];
  for (const workload of WORKLOAD_IDS) {
    for (const cell of cells.filter((c) => c.workload === workload)) {
      const label = WORKLOADS[workload].label;
      if (cell.status !== 'ok') {
        const target = TARGETS.find((t) => t.id === cell.target);
        if (cell.status === 'n/a' && target?.callOnly) continue;
        const note =
          cell.status === 'n/a' ? (target?.notes?.[workload] ?? target?.note ?? 'n/a') : (cell.problem ?? '');
        const row = [
          label,
          targetLabel(cell.target),
          cell.status,
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          note.split('\n')[0]!.slice(0, 100),
        ];
        if (severalRounds) row.splice(10, 0, '');
        rows.push(row);
        continue;
      }
      const rps = cell.rps;
      const ratio = (base: TargetId) => {
        if (base === cell.target || rps === undefined) return undefined;
        const other = rpsOf(cells, base, workload);
        return other ? rps / other : undefined;
      };
      const { faults } = cell;
      const note =
        faultCount(faults) > 0
          ? `non2xx ${faults.non2xx}, errors ${faults.errors}, timeouts ${faults.timeouts}, mismatches ${faults.mismatches}`
          : rps === undefined
            ? 'no response completed in the measured window'
            : [
                cell.note,
                cell.upstreamCpuUsPerRequest !== undefined &&
                  `upstream process CPU ${fmtInt(cell.upstreamCpuUsPerRequest)} us/req (not in srv CPU)`,
              ]
                .filter((part): part is string => typeof part === 'string' && part.length > 0)
                .join('; ');
      rows.push([
        label,
        targetLabel(cell.target),
        rps !== undefined ? fmtInt(rps) : '0',
        cell.p50Ms !== undefined ? fmtMs(cell.p50Ms) : '',
        cell.p99Ms !== undefined ? fmtMs(cell.p99Ms) : '',
        cell.serverCpuUsPerRequest !== undefined ? fmtInt(cell.serverCpuUsPerRequest) : '',
        cell.responseBytes !== undefined ? fmtInt(cell.responseBytes) : '',
        fmtRatio(ratio('mcp-nest')),
        fmtRatio(ratio('sdk')),
        fmtPct(ratio('bare')),
        ...(severalRounds ? [perRound(cell)] : []),
        note,
      ]);
    }
  }
  if (!markdown) return table(header, rows, numeric);
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (numeric.has(i) ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

/**
 * A target check: `ratio` is measured[numerator] / measured[denominator], where the metric is
 * req/s ('rps') or server CPU per request ('cpu'); PASS when it is within [min, max]. Checks
 * without bounds are printed for information only.
 */
interface CheckSpec {
  readonly label: string;
  readonly metric: 'rps' | 'cpu';
  readonly numerator: readonly [TargetId, WorkloadId];
  readonly denominator: readonly [TargetId, WorkloadId];
  /** Added to the denominator (e.g. the two requests of one MRTR exchange); for the 'cpu' metric. */
  readonly plus?: readonly [TargetId, WorkloadId];
  readonly min?: number;
  readonly max?: number;
}

/**
 * Costs ("X costs at most k times Y") are compared by server CPU time per request: it does not
 * include the load generator's own work, which shares the CPUs, and it varies less between runs
 * than req/s does on a busy machine. The req/s ratios are printed next to them for information.
 *
 * "tools/list with 500 tools costs little more than with 10", as we measure it: a 500-tool list
 * is ~56x the bytes of a 10-tool one, and on loopback with the load generator on the same cores
 * moving those bytes dominates (the bare server that writes a precomputed body slows down just as
 * much). So the check bounds the server CPU per 500-tool list against the bare server's, which
 * pays only for the bytes: anything above it is per-tool work done per request.
 */
export const LIST_500_MAX_CPU_VS_BARE = 1.5;

const CHECKS: readonly CheckSpec[] = [
  {
    label: 'Fastify tools/call >= 5x MCP-Nest (at its best set-up)',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'call'],
    denominator: ['mcp-nest', 'call'],
    min: 5,
  },
  {
    label: 'Fastify tools/call >= 4x SDK (at its best set-up)',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'call'],
    denominator: ['sdk', 'call'],
    min: 4,
  },
  {
    label: 'Fastify tools/call >= 50% of bare node:http',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'call'],
    denominator: ['bare', 'call'],
    min: 0.5,
  },
  {
    label: 'Express tools/call >= 2x MCP-Nest',
    metric: 'rps',
    numerator: ['mocapi-express', 'call'],
    denominator: ['mcp-nest', 'call'],
    min: 2,
  },
  {
    label: 'Fastify: a requestState retry costs <= 1.3x a tools/call (server CPU/req)',
    metric: 'cpu',
    numerator: ['mocapi-fastify', 'mrtr-retry'],
    denominator: ['mocapi-fastify', 'call'],
    max: 1.3,
  },
  {
    label: 'Express: a requestState retry costs <= 1.3x a tools/call (server CPU/req)',
    metric: 'cpu',
    numerator: ['mocapi-express', 'mrtr-retry'],
    denominator: ['mocapi-express', 'call'],
    max: 1.3,
  },
  {
    label: `Fastify: tools/list 500 server CPU/req <= ${LIST_500_MAX_CPU_VS_BARE}x bare node:http's`,
    metric: 'cpu',
    numerator: ['mocapi-fastify', 'list500'],
    denominator: ['bare', 'list500'],
    max: LIST_500_MAX_CPU_VS_BARE,
  },
  {
    label: `Express: tools/list 500 server CPU/req <= ${LIST_500_MAX_CPU_VS_BARE}x bare node:http's`,
    metric: 'cpu',
    numerator: ['mocapi-express', 'list500'],
    denominator: ['bare', 'list500'],
    max: LIST_500_MAX_CPU_VS_BARE,
  },
  {
    label: "Fastify: a fresh-token retry >= 5x the SDK's retry rate",
    metric: 'rps',
    numerator: ['mocapi-fastify', 'mrtr-fresh'],
    denominator: ['sdk', 'mrtr-fresh'],
    min: 5,
  },
  {
    label: "Express: a fresh-token retry >= 5x the SDK's retry rate",
    metric: 'rps',
    numerator: ['mocapi-express', 'mrtr-fresh'],
    denominator: ['sdk', 'mrtr-fresh'],
    min: 5,
  },
  {
    label: 'Fastify: a fresh-token retry vs the replayed one, server CPU/req',
    metric: 'cpu',
    numerator: ['mocapi-fastify', 'mrtr-fresh'],
    denominator: ['mocapi-fastify', 'mrtr-retry'],
  },
  {
    label: 'Fastify 2025-era tools/call (session) >= 4x MCP-Nest',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'legacy-call'],
    denominator: ['mcp-nest', 'legacy-call'],
    min: 4,
  },
  {
    label: 'Fastify 2025-era tools/call vs SDK (sessionless legacy leg)',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'legacy-call'],
    denominator: ['sdk', 'legacy-call'],
  },
  {
    label: 'Express 2025-era tools/call vs MCP-Nest',
    metric: 'rps',
    numerator: ['mocapi-express', 'legacy-call'],
    denominator: ['mcp-nest', 'legacy-call'],
  },
  {
    label: 'Fastify 2025-era elicitation round vs MCP-Nest',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'legacy-elicit'],
    denominator: ['mcp-nest', 'legacy-elicit'],
  },
  {
    label: 'Fastify: a 2025-era tools/call vs a 2026 one, server CPU/req',
    metric: 'cpu',
    numerator: ['mocapi-fastify', 'legacy-call'],
    denominator: ['mocapi-fastify', 'call'],
  },
  {
    label: 'Express: a 2025-era tools/call vs a 2026 one, server CPU/req',
    metric: 'cpu',
    numerator: ['mocapi-express', 'legacy-call'],
    denominator: ['mocapi-express', 'call'],
  },
  {
    label: 'Fastify: a 2025-era elicitation round vs a 2026 MRTR first round + retry, server CPU',
    metric: 'cpu',
    numerator: ['mocapi-fastify', 'legacy-elicit'],
    denominator: ['mocapi-fastify', 'mrtr-first'],
    plus: ['mocapi-fastify', 'mrtr-retry'],
  },
  {
    label: 'Express: a 2025-era elicitation round vs a 2026 MRTR first round + retry, server CPU',
    metric: 'cpu',
    numerator: ['mocapi-express', 'legacy-elicit'],
    denominator: ['mocapi-express', 'mrtr-first'],
    plus: ['mocapi-express', 'mrtr-retry'],
  },
  {
    label: 'Fastify: a requestState retry vs a tools/call, cost by req/s',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'call'],
    denominator: ['mocapi-fastify', 'mrtr-retry'],
  },
  {
    label: 'Express: a requestState retry vs a tools/call, cost by req/s',
    metric: 'rps',
    numerator: ['mocapi-express', 'call'],
    denominator: ['mocapi-express', 'mrtr-retry'],
  },
  {
    label: 'Fastify: tools/list 500 vs 10, cost by req/s',
    metric: 'rps',
    numerator: ['mocapi-fastify', 'list10'],
    denominator: ['mocapi-fastify', 'list500'],
  },
  {
    label: 'Express: tools/list 500 vs 10, cost by req/s',
    metric: 'rps',
    numerator: ['mocapi-express', 'list10'],
    denominator: ['mocapi-express', 'list500'],
  },
  {
    label: 'bare node:http: tools/list 500 vs 10, cost by req/s',
    metric: 'rps',
    numerator: ['bare', 'list10'],
    denominator: ['bare', 'list500'],
  },
  {
    label: 'Fastify: tools/list 2000 vs bare node:http, server CPU/req',
    metric: 'cpu',
    numerator: ['mocapi-fastify', 'list2000'],
    denominator: ['bare', 'list2000'],
  },
  {
    label: 'Fastify: an 8-round flow vs a 1-round flow, server CPU per flow',
    metric: 'cpu',
    numerator: ['mocapi-fastify', 'flow8'],
    denominator: ['mocapi-fastify', 'flow1'],
  },
  {
    label: 'SDK: an 8-round flow vs a 1-round flow, server CPU per flow',
    metric: 'cpu',
    numerator: ['sdk', 'flow8'],
    denominator: ['sdk', 'flow1'],
  },
];

function cpuOf(cells: readonly Cell[], target: TargetId, workload: WorkloadId): number | undefined {
  const cell = cells.find((c) => c.target === target && c.workload === workload);
  return cell?.status === 'ok' && cell.serverCpuUsPerRequest !== undefined && cell.serverCpuUsPerRequest > 0
    ? cell.serverCpuUsPerRequest
    : undefined;
}

export function evaluateChecks(cells: readonly Cell[]): CheckOutcome[] {
  return [...evaluateRatioChecks(cells), ...evaluateCostChecks(cells)];
}

function evaluateRatioChecks(cells: readonly Cell[]): CheckOutcome[] {
  return CHECKS.map((spec) => {
    const read = spec.metric === 'rps' ? rpsOf : cpuOf;
    const num = read(cells, ...spec.numerator);
    const base = read(cells, ...spec.denominator);
    const plus = spec.plus ? read(cells, ...spec.plus) : 0;
    const den = base === undefined || plus === undefined ? undefined : base + plus;
    if (num === undefined || den === undefined) return { label: spec.label, verdict: 'n/a' };
    const ratio = num / den;
    if (spec.min === undefined && spec.max === undefined) return { label: spec.label, verdict: 'info', ratio };
    const pass = (spec.min === undefined || ratio >= spec.min) && (spec.max === undefined || ratio <= spec.max);
    return { label: spec.label, verdict: pass ? 'PASS' : 'FAIL', ratio };
  });
}

export function renderChecks(outcomes: readonly CheckOutcome[]): string {
  return outcomes
    .map((o) => {
      const figure = o.detail ?? (o.ratio !== undefined ? `${o.ratio.toFixed(2)}x` : undefined);
      return `  [${o.verdict.padEnd(4)}] ${o.label}${figure !== undefined ? `: ${figure}` : ''}`;
    })
    .join('\n');
}

/** "Our layer" on one adapter: our server CPU per tools/call minus the bare Nest route's on that adapter. */
export interface LayerCost {
  readonly adapter: 'Fastify' | 'Express';
  readonly oursUs?: number;
  readonly nestRouteUs?: number;
  /** oursUs − nestRouteUs: what our module adds per request on top of Nest. */
  readonly layerUs?: number;
  /** The framework floor under Nest on this adapter (bare Fastify route; none measured for Express). */
  readonly frameworkRouteUs?: number;
  /**
   * Our rates as shares (req/s over req/s) of the bare Nest route's tools/call rate on this adapter
   * (`ofNestRoute`) and of our own tools/call rate (`ofOurCall`): a tools/call, a requestState
   * retry and a 2025-era tools/call in a session.
   */
  readonly shares: {
    readonly ofNestRoute: WorkloadShares;
    readonly ofOurCall: Omit<WorkloadShares, 'call'>;
  };
}

/** A share per workload; undefined where a workload did not run. */
export interface WorkloadShares {
  readonly call?: number;
  readonly retry?: number;
  readonly legacy?: number;
}

const shareOf = (part: number | undefined, whole: number | undefined) =>
  part !== undefined && whole !== undefined && whole > 0 ? part / whole : undefined;

const LAYERS: ReadonlyArray<{
  adapter: LayerCost['adapter'];
  ours: TargetId;
  nestRoute: TargetId;
  frameworkRoute?: TargetId;
}> = [
  { adapter: 'Fastify', ours: 'mocapi-fastify', nestRoute: 'nest-fastify-route', frameworkRoute: 'fastify-route' },
  { adapter: 'Express', ours: 'mocapi-express', nestRoute: 'nest-express-route' },
];

/** Our layer's server CPU per `tools/call add`, per adapter (ours − the bare Nest route on it). */
export function layerCosts(cells: readonly Cell[]): LayerCost[] {
  return LAYERS.map(({ adapter, ours, nestRoute, frameworkRoute }) => {
    const oursUs = cpuOf(cells, ours, 'call');
    const nestRouteUs = cpuOf(cells, nestRoute, 'call');
    const oursRps = rpsOf(cells, ours, 'call');
    const nestRouteRps = rpsOf(cells, nestRoute, 'call');
    const retryRps = rpsOf(cells, ours, 'mrtr-retry');
    const legacyRps = rpsOf(cells, ours, 'legacy-call');
    return {
      adapter,
      oursUs,
      nestRouteUs,
      layerUs: oursUs !== undefined && nestRouteUs !== undefined ? oursUs - nestRouteUs : undefined,
      frameworkRouteUs: frameworkRoute ? cpuOf(cells, frameworkRoute, 'call') : undefined,
      shares: {
        ofNestRoute: {
          call: shareOf(oursRps, nestRouteRps),
          retry: shareOf(retryRps, nestRouteRps),
          legacy: shareOf(legacyRps, nestRouteRps),
        },
        ofOurCall: { retry: shareOf(retryRps, oursRps), legacy: shareOf(legacyRps, oursRps) },
      },
    };
  });
}

export function renderLayerCosts(costs: readonly LayerCost[]): string {
  const us = (n: number | undefined) => (n === undefined ? 'n/a' : `${fmtInt(n)} us`);
  return costs
    .map((c) => {
      const shares = renderShares(c);
      if (c.layerUs === undefined) {
        return `  ${c.adapter}: n/a (needs ours and the bare Nest route on ${c.adapter}, tools/call add)${shares}`;
      }
      const layer = `our layer = ours ${us(c.oursUs)} - bare Nest route ${us(c.nestRouteUs)} = ${us(c.layerUs)}`;
      const nestAdds =
        c.frameworkRouteUs !== undefined && c.nestRouteUs !== undefined
          ? `; under it, bare Fastify route ${us(c.frameworkRouteUs)}, so Nest adds ` +
            us(c.nestRouteUs - c.frameworkRouteUs)
          : '';
      return `  ${c.adapter}: ${layer} per request${nestAdds}${shares}`;
    })
    .join('\n');
}

/** Our rates as shares (by req/s), on the lines after the adapter's; nothing for what did not run. */
function renderShares(c: LayerCost): string {
  const line = (of: string, shares: WorkloadShares) => {
    const parts = [
      shares.call !== undefined && `tools/call ${fmtPct(shares.call)}`,
      shares.retry !== undefined && `retry ${fmtPct(shares.retry)}`,
      shares.legacy !== undefined && `2025-era call ${fmtPct(shares.legacy)}`,
    ].filter((part): part is string => typeof part === 'string');
    return parts.length > 0 ? `\n    ours by req/s, of ${of}: ${parts.join(', ')}` : '';
  };
  return line("the bare Nest route's tools/call", c.shares.ofNestRoute) + line('our tools/call', c.shares.ofOurCall);
}
