/**
 * The MRTR flows at a glance, one line per target that ran them: server CPU per whole flow of
 * 1, 2, 4 and 8 rounds, server CPU per request of rounds 1, 2, 4 and 8 of the 8-round flow alone
 * (fresh tokens), and the requestState size after each round of the longest probe flow.
 */
import type { Cell } from './cells.js';
import { TARGETS } from './targets.js';
import { FLOW_DEPTHS, FLOW_STEPS, type WorkloadId } from './workload-types.js';

const fmt = (n: number | undefined) => (n === undefined ? '-' : Math.round(n).toLocaleString('en-US'));

/** The rows of the summary: [target, CPU per flow of 1/2/4/8, CPU per round 1/2/4/8, token chars]. */
function rows(cells: readonly Cell[]): string[][] {
  const cpu = (target: string, workload: WorkloadId) => {
    const cell = cells.find((c) => c.target === target && c.workload === workload && c.status === 'ok');
    return cell?.serverCpuUsPerRequest;
  };
  const out: string[][] = [];
  for (const target of TARGETS) {
    const flows = FLOW_STEPS.map((n) => cpu(target.id, `flow${n}`));
    const depths = FLOW_DEPTHS.map((k) => cpu(target.id, `flow8-r${k}`));
    if ([...flows, ...depths].every((v) => v === undefined)) continue;
    // The longest flow that ran: after its rounds 0 .. n-1.
    const chars = [...FLOW_STEPS]
      .reverse()
      .map((n) => cells.find((c) => c.target === target.id && c.workload === `flow${n}`)?.tokenChars)
      .find((t) => t !== undefined);
    out.push([target.label, flows.map(fmt).join(' / '), depths.map(fmt).join(' / '), chars ? chars.join(', ') : '-']);
  }
  return out;
}

const HEADER = [
  'target',
  `CPU us per flow of ${FLOW_STEPS.join(' / ')} rounds`,
  `CPU us per request, round ${FLOW_DEPTHS.join(' / ')} alone`,
  'requestState chars after round 0, 1, ... (longest flow run)',
];

/** The summary as a text table (markdown: a Markdown table); empty when no flow ran. */
export function renderFlows(cells: readonly Cell[], markdown = false): string {
  const body = rows(cells);
  if (body.length === 0) return '';
  if (markdown) {
    return [
      `| ${HEADER.join(' | ')} |`,
      `|${HEADER.map(() => '---').join('|')}|`,
      ...body.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
  }
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
