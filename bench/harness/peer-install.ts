/**
 * A target's own install (Target.peerDir, e.g. bench/peers/mcp-nest with NestJS 11): installed
 * from its lockfile with `npm ci` when its node_modules is missing or older than the lockfile, so
 * that a fresh clone (and CI) gets exactly the locked versions from the npm registry.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { REPO_ROOT } from './environment.js';

/** The absolute folder of a repository-relative peer directory. */
export function peerPath(peerDir: string): string {
  return join(fileURLToPath(REPO_ROOT), peerDir);
}

function needsInstall(dir: string): boolean {
  const installed = join(dir, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return true;
  return statSync(installed).mtimeMs < statSync(join(dir, 'package-lock.json')).mtimeMs;
}

/** The environment for npm: ours, less what a parent `npm run` exported about this repository. */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_(package_|lifecycle_|command$|config_local_prefix$)/.test(key) || key === 'INIT_CWD') delete env[key];
  }
  return env;
}

const installs = new Map<string, Promise<void>>();

/** Installs the peer directory once per run if needed; rejects with npm's output when `npm ci` fails. */
export function ensurePeerInstalled(peerDir: string, log: (line: string) => void): Promise<void> {
  let pending = installs.get(peerDir);
  if (!pending) {
    pending = install(peerPath(peerDir), log);
    installs.set(peerDir, pending);
  }
  return pending;
}

async function install(dir: string, log: (line: string) => void): Promise<void> {
  if (!needsInstall(dir)) return;
  const shown = relative(process.cwd(), dir) || dir;
  log(`  installing ${shown} from its lockfile: npm ci --prefix ${shown}`);
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(npm, ['ci', '--prefix', dir, '--no-audit', '--no-fund'], {
      env: npmEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, output }));
  });
  if (code !== 0) throw new Error(`npm ci --prefix ${shown} failed (exit ${code}):\n${output.trim()}`);
  log(`  installed ${shown} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
