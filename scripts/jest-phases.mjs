#!/usr/bin/env node
// npm test's Jest run, in two phases under the Node that runs this script:
//   1. every suite but the node fleets, on two workers (the suites mostly wait on servers);
//   2. the suites that start fleets of child processes (three nodes, nginx, Redis), one at a time
//      with nothing else running, since their bounds (a job taken over within 30 s, a node out
//      within 10 s of SIGTERM) are about our code, not about a CPU shared with other suites.
// Extra options (e.g. --ci) go to both phases; with a test path among the arguments, Jest runs once
// with them (the way to run some suites).
//
//   node scripts/jest-phases.mjs [jest arguments...]

import { spawnSync } from 'node:child_process';

const FLEETS = [
  'test/queue/queue-multi-node.e2e-spec.ts',
  'test/queue/queue-node-losses.e2e-spec.ts',
  'test/queue/queue-lock-loss.e2e-spec.ts',
  'test/redis/redis-multi-node.e2e-spec.ts',
  'test/cluster/redis-cluster.e2e-spec.ts',
  'test/idempotency/node-death.e2e-spec.ts',
];
const JEST = ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js'];
const extra = process.argv.slice(2);

function jest(args) {
  const run = spawnSync(process.execPath, [...JEST, ...extra, ...args], { stdio: 'inherit' });
  return run.status ?? 1;
}

if (extra.some((arg) => !arg.startsWith('-'))) process.exit(jest(['--maxWorkers=2']));
const ignored = FLEETS.map((file) => `--testPathIgnorePatterns=${file.replace(/\./g, '\\.')}`);
const first = jest(['--maxWorkers=2', ...ignored]);
if (first !== 0) process.exit(first);
process.exit(jest(['--runInBand', ...FLEETS]));
