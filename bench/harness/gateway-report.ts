/**
 * A call through the gateway against its parts (issue 43: "a tools/call through the gateway costs
 * at most our own call plus the upstream's"): per gateway target that ran `call`, its req/s,
 * p50/p99 and the gateway process's and the upstream process's CPU per request, next to our plain
 * call (the same Fastify app serving `add` itself) and the upstream's call measured alone, and the
 * two lines "gateway call vs our call + upstream's", for server CPU per request and for p50.
 */
import type { Cell } from './cells.js';
import { TARGETS, type TargetId } from './targets.js';
import type { WorkloadId } from './workload-types.js';
import { WORKLOADS } from './workloads.js';

/** Our own call: the gateway is this app, serving `add` itself instead of relaying it. */
const OUR_CALL = ['mocapi-fastify', 'call'] as const satisfies readonly [TargetId, WorkloadId];

interface Figures {
  readonly label: string;
  readonly rps?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly cpuUs?: number;
}

export interface GatewayCost {
  readonly gateway: Figures & { readonly upstreamCpuUs?: number };
  /** Our plain call; undefined when it did not run. */
  readonly ours?: Figures;
  /** The upstream's call loaded directly (the same server and wire); undefined when it did not run. */
  readonly upstreamAlone?: Figures;
}

function figuresOf(cells: readonly Cell[], [target, workload]: readonly [TargetId, WorkloadId]): Figures | undefined {
  const cell = cells.find((c) => c.target === target && c.workload === workload && c.status === 'ok');
  if (!cell) return undefined;
  const label = `${TARGETS.find((t) => t.id === target)?.label ?? target}: ${WORKLOADS[workload].label}`;
  return { label, rps: cell.rps, p50Ms: cell.p50Ms, p99Ms: cell.p99Ms, cpuUs: cell.serverCpuUsPerRequest };
}

/** One entry per gateway target whose `call` ran. */
export function gatewayCosts(cells: readonly Cell[]): GatewayCost[] {
  return TARGETS.flatMap((target) => {
    const cell =
      target.upstream && cells.find((c) => c.target === target.id && c.workload === 'call' && c.status === 'ok');
    if (!target.upstream || !cell) return [];
    return [
      {
        gateway: {
          label: `${target.label}: ${target.toolPrefix ?? ''}_add, upstream ${target.upstream.label}`,
          rps: cell.rps,
          p50Ms: cell.p50Ms,
          p99Ms: cell.p99Ms,
          cpuUs: cell.serverCpuUsPerRequest,
          upstreamCpuUs: cell.upstreamCpuUsPerRequest,
        },
        ours: figuresOf(cells, OUR_CALL),
        upstreamAlone: figuresOf(cells, target.upstream.alone),
      },
    ];
  });
}

const int = (n: number | undefined) => (n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));
const ms = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(2));

/** "gateway vs a + b = sum: +diff, ratio (within|over)", or why it cannot be said. */
function against(
  what: string,
  gateway: number | undefined,
  a: number | undefined,
  b: number | undefined,
  fmt: (n: number) => string,
  unit: string,
): string {
  if (gateway === undefined || a === undefined || b === undefined) {
    return `    gateway call vs our call + upstream's, ${what}: n/a (needs ${OUR_CALL.join(' ')} and the upstream's row)`;
  }
  const sum = a + b;
  const diff = gateway - sum;
  const verdict = gateway <= sum ? 'within' : 'over';
  return (
    `    gateway call vs our call + upstream's, ${what}: ${fmt(gateway)} ${unit} vs ${fmt(a)} + ${fmt(b)} = ` +
    `${fmt(sum)} ${unit}: ${diff < 0 ? '-' : '+'}${fmt(Math.abs(diff))} ${unit}, ${(gateway / sum).toFixed(2)}x (${verdict})`
  );
}

function figureLine(figures: Figures, cpu: string): string {
  return (
    `  ${figures.label}\n      ${int(figures.rps)} req/s, p50 ${ms(figures.p50Ms)} ms, p99 ${ms(figures.p99Ms)} ms, ` +
    cpu
  );
}

export function renderGatewayCosts(costs: readonly GatewayCost[]): string {
  return costs
    .map(({ gateway, ours, upstreamAlone }) => {
      const lines = [
        ours
          ? figureLine(ours, `server CPU ${int(ours.cpuUs)} us/req (our call)`)
          : `  our call (${OUR_CALL.join(' ')}): not run`,
      ];
      if (upstreamAlone && upstreamAlone.label !== ours?.label) {
        lines.push(
          figureLine(upstreamAlone, `server CPU ${int(upstreamAlone.cpuUs)} us/req (the upstream's call alone)`),
        );
      }
      lines.push(
        figureLine(
          gateway,
          `gateway process CPU ${int(gateway.cpuUs)} us/req, upstream process CPU ${int(gateway.upstreamCpuUs)} us/req`,
        ),
        against('server CPU per request', gateway.cpuUs, ours?.cpuUs, gateway.upstreamCpuUs, int, 'us'),
        against('p50', gateway.p50Ms, ours?.p50Ms, upstreamAlone?.p50Ms, ms, 'ms'),
      );
      return lines.join('\n');
    })
    .join('\n');
}
