import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RedisNodeSettings } from './redis-node.module.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NODE_ARGS = [
  '--import',
  fileURLToPath(new URL('../stdio/swc-register.mjs', import.meta.url)),
  fileURLToPath(new URL('./redis-node.ts', import.meta.url)),
];

/** One node as a child process (so a test can SIGKILL it). */
export interface NodeProcess {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything it printed so far (Nest's log lines and the tools' `RAN` lines). */
  output(): string;
  /** Whether it is still running. */
  alive(): boolean;
  /** Its resident set size in bytes (from /proc). */
  rss(): number;
  /** Stops it (SIGTERM: shutdown hooks run) and waits for the exit. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Starts a node and resolves once it listens. */
export async function startNode(settings: RedisNodeSettings, timeoutMs = 30_000): Promise<NodeProcess> {
  const child = spawn(process.execPath, NODE_ARGS, {
    cwd: ROOT,
    env: { ...process.env, MOCAPI_NODE: JSON.stringify(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node ${settings.name} did not start:\n${output}`)), timeoutMs);
    const check = () => {
      const match = /READY (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`node ${settings.name} exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name: settings.name,
    port,
    child,
    output: () => output,
    alive,
    rss: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    stop: async () => {
      if (!alive()) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Kills whatever nodes a failed test left running. */
export function killNodes(): void {
  for (const child of running) child.kill('SIGKILL');
}
