/**
 * `npm run bench:startup`: how long a server takes from spawn to its first served request, for a
 * bare Nest route and for our bench app with 10 and with 500 tools, on Fastify and Express (the
 * compiled servers of bench/servers, tsc output). Every target starts `--runs` times (default 7),
 * interleaved, after one untimed start each (the page cache); the parent polls each child over
 * loopback with `tools/call add` (see startup/startup-probe.ts). Reported, never asserted: the exit
 * code says only whether every start answered correctly.
 *
 *   node bench/out/build/bench/startup.js [--runs 7] [--node machine,26] [--tools 10,500]
 *        [--json bench/out/startup.json]
 *   node bench/out/build/bench/startup.js --cpu-prof bench/out/startup-prof [--node 26]
 *        (one start per target with --cpu-prof, the profiles in that folder; nothing timed)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { option } from './cli-option.js';
import { REPO_ROOT } from './harness/environment.js';
import { parseNodeSpecs, type NodeSpec } from './harness/node-runs.js';
import { renderNodeRun, type NodeRun } from './startup/startup-report.js';
import { timeStartup, type StartupSample } from './startup/startup-probe.js';
import { DEFAULT_TOOL_COUNTS, startupTargets } from './startup/startup-targets.js';

const RUNS = option('runs', 7);
const NODES: NodeSpec[] = parseNodeSpecs(option('node'));
const JSON_PATH = option('json');
const PROFILE_DIR = option('cpu-prof');
const TOOL_COUNTS = option('tools')?.split(',').map(Number) ?? [...DEFAULT_TOOL_COUNTS];
const TARGETS = startupTargets(TOOL_COUNTS);
/** Pause between two starts, so that one child's exit does not overlap the next one's start. */
const SETTLE_MS = 300;

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The `node` binary of a Node spec: this one, or one fetched by scripts/fetch-node.mjs. */
async function nodeBinary(spec: NodeSpec): Promise<string> {
  if (spec === 'machine') return process.execPath;
  const { ensureNode } = (await import(new URL('scripts/fetch-node.mjs', REPO_ROOT).href)) as {
    ensureNode(major: number, options: { log(line: string): void }): Promise<{ node: string }>;
  };
  return (await ensureNode(spec, { log })).node;
}

const versionOf = (node: string): string => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();

async function measureOn(node: string): Promise<NodeRun> {
  const version = versionOf(node);
  const loadBefore = loadavg()[0]!;
  log(`startup on Node ${version}: one untimed start per target, then ${RUNS} interleaved rounds`);
  for (const target of TARGETS) await timeStartup(node, target);
  const samples: StartupSample[] = [];
  for (let round = 0; round < RUNS; round++) {
    // Each round starts at the next target, so that no target always follows the same one.
    for (let i = 0; i < TARGETS.length; i++) {
      const target = TARGETS[(round + i) % TARGETS.length]!;
      await sleep(SETTLE_MS);
      const sample = await timeStartup(node, target);
      samples.push(sample);
      log(
        `  round ${round + 1} ${target.id}: ${sample.totalMs.toFixed(0)} ms ` +
          `(listening ${sample.listeningMs.toFixed(0)}, cpu ${sample.cpuMs.toFixed(0)})`,
      );
    }
  }
  return { node: version, runs: RUNS, toolCounts: TOOL_COUNTS, load: [loadBefore, loadavg()[0]!], samples };
}

async function profileOn(node: string, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const target of TARGETS) {
    const folder = resolve(dir, `${versionOf(node)}-${target.id}`);
    await timeStartup(node, { ...target, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', folder] });
    log(`profile of ${target.id} in ${folder}`);
  }
}

async function main(): Promise<void> {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer, got ${RUNS}`);
  if (TOOL_COUNTS.some((n) => !Number.isInteger(n) || n < 2)) {
    throw new Error(`--tools takes tool counts of 2 or more, comma-separated (e.g. 10,500), got ${option('tools')}`);
  }
  const specs = NODES.length > 0 ? NODES : (['machine'] as NodeSpec[]);
  const runs: NodeRun[] = [];
  for (const spec of specs) {
    const node = await nodeBinary(spec);
    if (PROFILE_DIR !== undefined) await profileOn(node, PROFILE_DIR);
    else runs.push(await measureOn(node));
  }
  if (runs.length === 0) return;
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', 'src', 'bench'], {
    encoding: 'utf8',
  }).trim();
  const header = `${new Date().toISOString()}, commit ${commit}${dirty ? ' (src/ or bench/ with uncommitted changes)' : ''}`;
  process.stdout.write(`${header}\n\n${runs.map(renderNodeRun).join('\n\n')}\n`);
  if (JSON_PATH !== undefined) {
    mkdirSync(dirname(resolve(JSON_PATH)), { recursive: true });
    writeFileSync(JSON_PATH, `${JSON.stringify({ header, runs }, null, 2)}\n`);
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
