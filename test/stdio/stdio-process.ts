import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root, whence the child resolves node_modules. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `node <SERVER_ARGS>` runs test/stdio/stdio-server.ts, transpiled on the fly by SWC like Jest does. */
export const SERVER_ARGS = [
  '--import',
  fileURLToPath(new URL('./swc-register.mjs', import.meta.url)),
  fileURLToPath(new URL('./stdio-server.ts', import.meta.url)),
];

/** `node TEE <file> <command...>` copies the command's stdout to <file> as well. */
export const TEE = fileURLToPath(new URL('./stdout-tee.mjs', import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr contains `text`. */
  waitForStderr(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves once stdout holds `count` complete lines. */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
}

const running = new Set<ChildProcessWithoutNullStreams>();

/** Kills the servers a failed test left running, so Jest does not wait on them. */
export async function killServers(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGKILL');
      return closed;
    }),
  );
}

/** Spawns the stdio server with raw pipes, for wire-level assertions. */
export function spawnServer(): ServerProcess {
  const child = spawn(process.execPath, SERVER_ARGS, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  child.once('close', () => running.delete(child));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const poll = async (done: () => boolean, what: () => string, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${what()}\n--- stdout ---\n${out}\n--- stderr ---\n${err}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const lines = (): string[] => out.split('\n').slice(0, -1);
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitForStderr: (text, timeoutMs = 20_000) =>
      poll(
        () => err.includes(text),
        () => `stderr never contained ${JSON.stringify(text)}`,
        timeoutMs,
      ),
    waitForLines: async (count, timeoutMs = 20_000) => {
      await poll(
        () => lines().length >= count,
        () => `expected ${count} line(s) on stdout`,
        timeoutMs,
      );
      return lines();
    },
  };
}
