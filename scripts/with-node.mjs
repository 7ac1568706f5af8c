#!/usr/bin/env node
// Runs `node <args>` under another Node major (fetched by scripts/fetch-node.mjs into .tools/),
// with that Node first on PATH so the processes it starts use it too. Used by `npm run test:lts`
// (the current LTS line, Node 26):
//
//   node scripts/with-node.mjs 26 --experimental-vm-modules node_modules/jest/bin/jest.js --ci

import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';
import { ensureNode } from './fetch-node.mjs';

const [major, ...args] = process.argv.slice(2);
if (!major || !/^\d+$/.test(major) || args.length === 0) {
  console.error('usage: node scripts/with-node.mjs <major> <node arguments...>');
  process.exit(2);
}
const log = (line) => console.log(`with-node: ${line}`);
const { node, binDir, version } = await ensureNode(Number(major), { log });
log(`Node ${version}: node ${args.join(' ')}`);
const started = Date.now();
const child = spawn(node, args, {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.once('error', (error) => {
  console.error(`with-node: ${error.message}`);
  process.exit(1);
});
child.once('close', (code, signal) => {
  log(`Node ${version}: exit ${code ?? signal} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(code ?? 1);
});
