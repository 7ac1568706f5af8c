#!/usr/bin/env node
// Builds the published package (npm run build; also run by `prepare` and `prepack`, so `npm pack`,
// `npm publish` and git dependencies get a full build). Two builds of src/, side by side:
//
//   dist/esm   ES modules (tsconfig.esm.json), what `import` resolves to
//   dist/cjs   CommonJS (tsconfig.cjs.json), what `require` resolves to
//
// each with its declarations and a package.json naming its module type, so that Node and
// TypeScript read dist/cjs as CommonJS inside this "type": "module" package. Every entry point of
// one build imports the others of the same build only (relative imports), so `@mocapi/nestjs` and
// `@mocapi/nestjs/testing` required from CommonJS share one copy of the classes.
//
// `npm pack` and `npm publish` run prepack and then prepare: the second run is skipped.

import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUILDS = [
  { name: 'esm', tsconfig: 'tsconfig.esm.json', type: 'module' },
  { name: 'cjs', tsconfig: 'tsconfig.cjs.json', type: 'commonjs' },
];

const event = process.env.npm_lifecycle_event;
const command = process.env.npm_command;
if (event === 'prepare' && (command === 'pack' || command === 'publish')) {
  console.log(`build: skipped in prepare (prepack of npm ${command} has just built dist/esm and dist/cjs)`);
  process.exit(0);
}

function tsc(tsconfig) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('close', (code) => done(code));
  });
}

const started = Date.now();
for (const { name } of BUILDS) rmSync(join(ROOT, 'dist', name), { recursive: true, force: true });
const codes = await Promise.all(BUILDS.map(({ tsconfig }) => tsc(tsconfig)));
const failed = BUILDS.filter((_, i) => codes[i] !== 0);
if (failed.length > 0) {
  console.error(`build: tsc failed for ${failed.map((b) => b.tsconfig).join(', ')}`);
  process.exit(1);
}
for (const { name, type } of BUILDS) {
  mkdirSync(join(ROOT, 'dist', name), { recursive: true });
  writeFileSync(join(ROOT, 'dist', name, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
console.log(
  `build: dist/esm (ESM) and dist/cjs (CommonJS) with declarations, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
