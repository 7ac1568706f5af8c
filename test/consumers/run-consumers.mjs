#!/usr/bin/env node
// Consumer tests (npm run test:consumers, part of npm test): the package as an app gets it from npm.
//
// 1. `npm pack` this repository (its prepack builds dist/esm and dist/cjs) into a temporary folder,
//    and check the tarball holds every file package.json's `exports` names (and no tests).
// 2. Copy each app below into that folder, point its `@mocapi/nestjs` dependency at the tarball and
//    `npm install` it from the registry (--prefer-offline: the npm cache makes reruns fast):
//      cjs-nest11   a CommonJS NestJS 11 app as the Nest CLI sets it up, Jest 29 + ts-jest (and
//                   a second Jest config for @mocapi/nestjs/oauth2, whose jose 6 is an ES module);
//      esm-nest12   an ESM NestJS 12 app ("type": "module", as `nest new` makes it) on Fastify,
//                   Vitest as `nest new` sets it up, and again with the NestJS docs' unplugin-swc.
// 3. In each: load every entry point (require() / import) and check it resolves into its own build
//    only; type-check the app against the package's declarations (for cjs-nest11 ts-jest does it,
//    without Jest's cache, which would not see the package change); run its test, which drives an
//    eliciting tool through `@mocapi/nestjs/testing`. cjs-nest11 runs on the machine's Node (20,
//    the lowest supported line), Node 22 and Node 24 (the previous LTS line); esm-nest12 on Node 22 and 24
//    (NestJS 12's dependencies and Vitest 5 need Node >= 22). Nodes 22 and 24 come from
//    scripts/fetch-node.mjs, like the conformance runner's.
//
// Options:
//   --app <name>   only this app (cjs-nest11 or esm-nest12)
//   --keep         keep the temporary folder (it is kept anyway when a step fails)
//   --verbose      print every step's output, not only the summaries and failures

import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode } from '../../scripts/fetch-node.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const APPS = ['cjs-nest11', 'esm-nest12'];

// ---------------------------------------------------------------------------------------------
// Arguments

const options = { apps: APPS, keep: false, verbose: false };
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--keep') options.keep = true;
  else if (arg === '--verbose') options.verbose = true;
  else if (arg === '--app' && APPS.includes(process.argv[i + 1])) options.apps = [process.argv[++i]];
  else if (arg === '--help' || arg === '-h') {
    const lines = readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1);
    console.log(
      lines
        .slice(
          0,
          lines.findIndex((l) => !l.startsWith('//')),
        )
        .map((l) => l.replace(/^\/\/ ?/, ''))
        .join('\n'),
    );
    process.exit(0);
  } else fail(`unknown argument ${arg} (see --help)`);
}

function fail(message) {
  console.error(`consumers: ${message}`);
  process.exit(2);
}

const log = (line) => console.log(`consumers: ${line}`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------
// Child processes: each runs in its own process group, killed with it on a timeout or on our exit.

const children = new Set();
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
process.once('exit', () => children.forEach((child) => killGroup(child, 'SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    children.forEach((child) => killGroup(child, 'SIGTERM'));
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/**
 * The environment of the commands: ours, less what the npm running this script exported about
 * this repository (its package, its lifecycle, its prefix), so that the npm and tools started in
 * an app see that app only. With `node`, that Node goes first on PATH.
 */
function environment(node) {
  const env = { ...process.env, CI: process.env.CI ?? 'true', NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const key of Object.keys(env)) {
    if (
      /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_local_prefix$)/.test(key) ||
      key === 'INIT_CWD'
    )
      delete env[key];
  }
  if (node) env.PATH = `${node.binDir}${delimiter}${env.PATH ?? ''}`;
  return env;
}

/** Runs one step; resolves to { code, output, ms }. Output is captured (and echoed with --verbose). */
function run(command, args, { cwd, node, timeoutMs = 180_000 }) {
  return new Promise((done, reject) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd,
      env: environment(node),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let output = '';
    const take = (chunk) => {
      output += chunk;
      if (options.verbose) process.stdout.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => {
      output += `\n[consumers: timed out after ${seconds(timeoutMs)}]\n`;
      killGroup(child, 'SIGKILL');
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      done({
        code: code ?? (signal ? 128 : 1),
        // eslint-disable-next-line no-control-regex -- strips terminal colour codes
        output: output.replace(/\x1b\[[0-9;]*m/g, ''),
        ms: Date.now() - started,
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Steps and their report

const timings = [];
let failed = false;

/** Runs a named step, prints its outcome (and its output when it fails); returns its output or throws. */
async function step(label, command, args, opts, summarize = () => []) {
  const shown = [command === process.execPath || command.endsWith('/node') ? 'node' : command, ...args].join(' ');
  const { code, output, ms } = await run(command, args, opts);
  timings.push({ label, ms });
  const where = opts.app ?? 'repo';
  if (code !== 0) {
    failed = true;
    console.log(
      `\nconsumers: FAILED ${label} (exit ${code}, ${seconds(ms)})\n  in ${opts.cwd}\n  $ ${shown}\n${output.trimEnd()}\n`,
    );
    throw new Error(`${label} failed`);
  }
  const lines = summarize(output);
  console.log(
    `consumers: ok  ${label} (${seconds(ms)})  [${where}: ${shown}]${lines.map((l) => `\n              ${l}`).join('')}`,
  );
  return output;
}

const testSummary = (output) =>
  output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(Test Suites:|Tests:|Test Files |Tests +\d)/.test(l))
    .map((l) => l.replace(/\s+/g, ' '));
const lastLine = (output) => output.trim().split('\n').slice(-1);

// ---------------------------------------------------------------------------------------------
// 1. Pack

async function pack(work) {
  await step(
    'pack: npm pack (prepack builds dist/esm and dist/cjs)',
    'npm',
    ['pack', '--pack-destination', work],
    { cwd: ROOT, timeoutMs: 240_000 },
    (out) =>
      out
        .split('\n')
        .filter((l) => /^build: |total files:|package size:/.test(l.replace(/^npm notice /, '')))
        .map((l) => l.replace(/^npm notice /, '')),
  );
  const tarballs = readdirSync(work).filter((f) => f.endsWith('.tgz'));
  if (tarballs.length !== 1) throw new Error(`expected one tarball in ${work}, found ${tarballs.join(', ') || 'none'}`);
  const tarball = join(work, tarballs[0]);

  const list = await run('tar', ['-tzf', tarball], { cwd: work });
  const files = new Set(
    list.output
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, '')),
  );
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const targets = new Set([pkg.main, pkg.types].filter(Boolean));
  const collect = (value) =>
    typeof value === 'string' ? targets.add(value) : Object.values(value ?? {}).forEach(collect);
  collect(pkg.exports);
  Object.values(pkg.typesVersions ?? {}).forEach((map) =>
    Object.values(map).forEach((paths) => paths.forEach((p) => targets.add(p))),
  );
  const missing = [...targets].map((t) => t.replace(/^\.\//, '')).filter((t) => !files.has(t));
  const tests = [...files].filter((f) => /\.(e2e-)?spec\.(js|d\.ts)$/.test(f));
  const markers = ['dist/esm/package.json', 'dist/cjs/package.json'].filter((f) => !files.has(f));
  if (missing.length || tests.length || markers.length) {
    failed = true;
    throw new Error(
      `the tarball is incomplete: missing ${[...missing, ...markers].join(', ') || 'nothing'}; test files ${tests.slice(0, 5).join(', ') || 'none'}`,
    );
  }
  log(
    `ok  tarball ${tarballs[0]}: ${files.size} files, all ${targets.size} targets of main/types/exports/typesVersions present, no tests`,
  );
  return tarball;
}

// ---------------------------------------------------------------------------------------------
// 2 and 3. The apps

function prepareApp(name, work, tarball) {
  const dir = join(work, name);
  cpSync(join(HERE, name), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
  const file = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  pkg.dependencies = { '@mocapi/nestjs': `file:${tarball}`, ...pkg.dependencies };
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

const INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'];
const installSummary = (out) => out.split('\n').filter((l) => /^added \d+ packages/.test(l));

async function cjsApp(dir, nodes) {
  const { node20, node22, node24 } = nodes;
  const opts = { cwd: dir, app: 'cjs-nest11' };
  await step(
    `cjs-nest11: npm install (Node ${node20.major})`,
    'npm',
    INSTALL,
    { ...opts, timeoutMs: 240_000 },
    installSummary,
  );
  for (const node of [node20, node22, node24]) {
    await step(
      `cjs-nest11: require() every entry (Node ${node.major})`,
      node.node,
      ['check-entries.cjs'],
      { ...opts, node },
      lastLine,
    );
  }
  await step(
    'cjs-nest11: tsc -p tsconfig.nodenext.json (module nodenext, CommonJS)',
    node20.node,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.nodenext.json'],
    { ...opts, node: node20 },
  );
  for (const node of [node20, node22, node24]) {
    await step(
      `cjs-nest11: jest, ts-jest with module commonjs (Node ${node.major})`,
      node.node,
      ['node_modules/jest/bin/jest.js', '--ci', '--no-cache'],
      { ...opts, node },
      testSummary,
    );
  }
  await step(
    `cjs-nest11: jest -c jest.oauth2.config.js, /oauth2 with jose 6 (Node ${node20.major})`,
    node20.node,
    ['node_modules/jest/bin/jest.js', '--ci', '--no-cache', '-c', 'jest.oauth2.config.js'],
    { ...opts, node: node20 },
    testSummary,
  );
}

async function esmApp(dir, nodes) {
  const { node22, node24 } = nodes;
  const opts = { cwd: dir, app: 'esm-nest12', node: node24 };
  const vitest = 'node_modules/vitest/vitest.mjs';
  await step('esm-nest12: npm install (Node 24)', 'npm', INSTALL, { ...opts, timeoutMs: 240_000 }, installSummary);
  for (const node of [node22, node24]) {
    await step(
      `esm-nest12: import every entry (Node ${node.major})`,
      node.node,
      ['check-entries.mjs'],
      { ...opts, node },
      lastLine,
    );
  }
  await step(
    'esm-nest12: tsc --noEmit (module nodenext, ESM)',
    node24.node,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit', '--incremental', 'false'],
    opts,
  );
  for (const node of [node22, node24]) {
    await step(
      `esm-nest12: vitest run (Node ${node.major})`,
      node.node,
      [vitest, 'run'],
      { ...opts, node },
      testSummary,
    );
  }
  await step(
    'esm-nest12: vitest run, unplugin-swc (Node 24)',
    node24.node,
    [vitest, 'run', '--config', 'vitest.swc.config.ts'],
    opts,
    testSummary,
  );
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'mocapi-consumers-'));
  log(`apps ${options.apps.join(', ')} in ${work}`);
  try {
    const fetchStarted = Date.now();
    const fetched = Promise.all([ensureNode(22, { log }), ensureNode(24, { log })]).then((nodes) => {
      timings.push({ label: 'Nodes 22 and 24 ready (scripts/fetch-node.mjs)', ms: Date.now() - fetchStarted });
      return nodes;
    });
    const [tarball, [node22, node24]] = await Promise.all([pack(work), fetched]);
    const nodes = {
      node20: {
        node: process.execPath,
        binDir: dirname(process.execPath),
        major: process.versions.node.split('.')[0],
        version: process.versions.node,
      },
      node22: { ...node22, major: '22' },
      node24: { ...node24, major: '24' },
    };
    if (nodes.node20.major !== '20')
      log(`note: run under ${process.version}, so the lowest supported line (Node 20) is not covered`);
    log(
      `Nodes: ${Object.values(nodes)
        .map((n) => `${n.version} (${relative(ROOT, n.node) || n.node})`)
        .join(', ')}`,
    );
    const runs = { 'cjs-nest11': cjsApp, 'esm-nest12': esmApp };
    const results = await Promise.allSettled(
      options.apps.map((name) => runs[name](prepareApp(name, work, tarball), nodes)),
    );
    const errors = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
    if (errors.length) throw errors[0];
  } catch (error) {
    failed = true;
    if (!/ failed$/.test(error.message)) console.error(`consumers: ${error.stack ?? error.message}`);
  } finally {
    console.log('\nconsumers: step durations (the apps run side by side)');
    for (const { label, ms } of timings) console.log(`  ${seconds(ms).padStart(7)}  ${label}`);
    console.log(`  ${seconds(Date.now() - started).padStart(7)}  total`);
    if (failed || options.keep) log(`kept ${work}`);
    else if (existsSync(work) && statSync(work).isDirectory()) rmSync(work, { recursive: true, force: true });
  }
  console.log(failed ? 'consumers: FAILED' : 'consumers: all consumer apps pass');
  process.exit(failed ? 1 : 0);
}

await main();
