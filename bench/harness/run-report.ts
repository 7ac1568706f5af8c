/**
 * One saved run (what `--json` writes) and its report: the console text and the Markdown of
 * bench/RESULTS.md; and several runs of the same command on different Nodes side by side.
 */
import type { Cell, CheckOutcome, Measurement } from './cells.js';
import type { RunEnvironment } from './environment.js';
import { renderFlows } from './flow-report.js';
import { gatewayCosts, renderGatewayCosts, type GatewayCost } from './gateway-report.js';
import { renderMicro, type MicroRow } from './micro-report.js';
import {
  aggregate,
  evaluateChecks,
  faultCount,
  layerCosts,
  renderChecks,
  renderLayerCosts,
  renderTable,
  type LayerCost,
} from './report.js';
import { TARGETS } from './targets.js';
import type { WorkloadId } from './workload-types.js';
import { WORKLOADS } from './workloads.js';

export interface RunRecord {
  /** Arguments of the run that measured. */
  readonly command: string;
  readonly environment: RunEnvironment;
  readonly loadAverageAtEnd: number;
  readonly settings: string;
  readonly smoke: boolean;
  readonly measurements: Measurement[];
  readonly micro?: MicroRow[];
  readonly microProblem?: string;
}

export interface RunReport {
  readonly record: RunRecord;
  readonly cells: Cell[];
  readonly checks: CheckOutcome[];
  readonly layer: LayerCost[];
  /** A call through each gateway target against our call + the upstream's (none when no gateway ran `call`). */
  readonly gateway: GatewayCost[];
  /** What failed: workloads that failed, workloads with faulty responses, the micro-benchmark. */
  readonly failed: Cell[];
  readonly faulty: Cell[];
}

export function reportOf(record: RunRecord): RunReport {
  const cells = aggregate(record.measurements);
  return {
    record,
    cells,
    checks: evaluateChecks(cells),
    layer: layerCosts(cells),
    gateway: gatewayCosts(cells),
    failed: cells.filter((c) => c.status === 'failed'),
    faulty: cells.filter((c) => faultCount(c.faults) > 0),
  };
}

/** The MRTR flow summary's lines, or none when no flow ran. */
function flowLines(report: RunReport, wrap: (flows: string) => string[], markdown = false): string[] {
  const flows = renderFlows(report.cells, markdown);
  return flows.length > 0 ? wrap(flows) : [];
}

/** The gateway section's lines, or none when no gateway target ran `call`. */
function gatewayLines(report: RunReport, wrap: (costs: string) => string[]): string[] {
  return report.gateway.length > 0 ? wrap(renderGatewayCosts(report.gateway)) : [];
}

const GATEWAY_HEADING =
  "A tools/call through the gateway vs our call + the upstream's (medians; the upstream process's CPU is not in the gateway's):";

const severalRounds = (record: RunRecord) => record.measurements.some((m) => m.round > 1);

/** The console report of one run. */
export function renderText(report: RunReport, renderEnvironment: (env: RunEnvironment) => string): string {
  const { record } = report;
  const lines = [
    '',
    renderEnvironment(record.environment),
    `load        ${record.settings}`,
    '',
    renderTable(report.cells),
    `(load avg (1 min) at the end: ${record.loadAverageAtEnd.toFixed(2)})`,
    '',
    'Ratios: "vs X" = req/s of the row / req/s of X on the same workload. Latencies are per request, in ms.',
    severalRounds(record) ? 'With several rounds every figure is the median of its own values over the rounds.' : '',
    '',
    'Our layer on tools/call add (server CPU per request, ours minus the bare Nest route on the same adapter), and our rates as shares:',
    renderLayerCosts(report.layer),
    '',
    ...gatewayLines(report, (costs) => [GATEWAY_HEADING, costs, '']),
    ...flowLines(report, (flows) => [
      'MRTR flows (server CPU, medians; round k alone = the retry answering question k, fresh tokens):',
      flows,
      '',
    ]),
    record.smoke ? 'Target checks (smoke run: informative only, never asserted):' : 'Target checks (this run):',
    renderChecks(report.checks),
  ];
  if (record.micro) lines.push('', 'requestState seal + open (in-process, sequential):', renderMicro(record.micro));
  if (record.microProblem) lines.push('', `requestState micro-benchmark FAILED: ${record.microProblem}`);
  return `${lines.join('\n')}\n`;
}

/** The Markdown report of one run; `level` 2 nests it under a combined report's heading. */
export function renderMarkdown(report: RunReport, level: 1 | 2 = 1): string {
  const { record } = report;
  const env = record.environment;
  const h = (n: number) => '#'.repeat(n + level - 1);
  const lines = [
    level === 1 ? '# Benchmark results' : `## Node ${env.node}`,
    '',
    `Measured by \`node bench/out/build/bench/run.js ${record.command}\` (see bench/README.md).`,
    '',
    `- Date: ${env.date}`,
    `- Machine: ${env.cpus} x ${env.cpuModel}, ${env.os}; the load generator shares these CPUs`,
    `- Load average (1 min): ${env.loadAverage1m.toFixed(2)} at the start, ${record.loadAverageAtEnd.toFixed(2)} at the end`,
    `- Node: ${env.node}`,
    `- Commit: ${env.gitCommit}`,
    `- Versions: ${Object.entries(env.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
    `- Load: ${record.settings}`,
    '',
    `${h(2)} req/s and latency`,
    '',
    renderTable(report.cells, true),
    '',
    '"vs X" = req/s of the row / req/s of X on the same workload. "srv CPU us/req" = server process CPU time',
    '(user + system, all threads) during the measured run per response. With several rounds, every figure is',
    'the median of its own values over the rounds.',
    '',
    `${h(2)} Our layer`,
    '',
    "Server CPU per `tools/call add`: ours minus the bare Nest route on the same adapter; then our rates (req/s) as shares of the bare Nest route's `tools/call add` and of our own.",
    '',
    '```text',
    renderLayerCosts(report.layer),
    '```',
    '',
    ...gatewayLines(report, (costs) => [
      `${h(2)} A call through the gateway`,
      '',
      GATEWAY_HEADING,
      '',
      '```text',
      costs,
      '```',
      '',
    ]),
    ...flowLines(
      report,
      (flows) => [
        `${h(2)} MRTR flows`,
        '',
        'Server CPU (medians) per whole flow of `confirm_steps`, per request of round k of the 8-round flow sent',
        'alone (the retry answering question k, fresh prefetched tokens), and the requestState size after each round.',
        '',
        flows,
        '',
      ],
      true,
    ),
    `${h(2)} Target checks`,
    '',
    '```text',
    renderChecks(report.checks),
    '```',
  ];
  const micro = record.micro
    ? renderMicro(record.micro)
    : record.microProblem
      ? `FAILED: ${record.microProblem}`
      : undefined;
  if (micro) lines.push('', `${h(2)} requestState seal + open (in-process, sequential)`, '', '```text', micro, '```');
  return `${lines.join('\n')}\n`;
}

/** The workloads the Node comparison shows (the others are in each run's own table). */
const COMPARED: readonly WorkloadId[] = [
  'call',
  'list10',
  'list500',
  'mrtr-retry',
  'mrtr-fresh',
  'flow8',
  'legacy-call',
];

/** req/s and server CPU per request of each target on each run's Node, for the main workloads. */
export function renderNodeComparison(reports: readonly RunReport[], markdown: boolean): string {
  const fmt = (n: number | undefined) => (n === undefined ? '' : Math.round(n).toLocaleString('en-US'));
  const header = [
    'workload',
    'target',
    ...reports.flatMap((r) => {
      const node = r.record.environment.node.split(' ')[0]!;
      return [`${node} req/s`, `${node} CPU us/req`];
    }),
  ];
  const rows: string[][] = [];
  for (const workload of COMPARED) {
    for (const target of TARGETS) {
      const cells = reports.map((r) => r.cells.find((c) => c.target === target.id && c.workload === workload));
      if (cells.every((c) => c?.status !== 'ok')) continue;
      rows.push([
        WORKLOADS[workload].label,
        target.label,
        ...cells.flatMap((c) =>
          c?.status === 'ok' ? [fmt(c.rps), fmt(c.serverCpuUsPerRequest)] : [c?.status ?? 'not run', ''],
        ),
      ]);
    }
  }
  if (markdown) {
    return [
      `| ${header.join(' | ')} |`,
      `|${header.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Several runs of one command, one per Node: the comparison, then each run's own report. */
export function renderCombinedMarkdown(reports: readonly RunReport[]): string {
  const nodes = reports.map((r) => r.record.environment.node).join(' and ');
  return [
    '# Benchmark results',
    '',
    `The same command on ${reports.length} Nodes, one after the other: ${nodes} (see bench/README.md,`,
    '"Node versions"). Compare figures within one run; across the runs compare the ratios.',
    '',
    '## By Node: req/s and server CPU per request',
    '',
    renderNodeComparison(reports, true),
    '',
    ...reports.map((r) => renderMarkdown(r, 2)),
  ].join('\n');
}
