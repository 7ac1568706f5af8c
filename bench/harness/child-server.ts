/** Starts one benchmark server as a child process on 127.0.0.1 and stops it again. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from '../../test/support/free-port.js';
import { DEFAULT_HOST, MCP_PATH } from '../shared/bench-spec.js';
import { answersHttp } from './http-client.js';

const OUTPUT_TAIL_LINES = 40;

let ticks: number | undefined;

/** The kernel's clock ticks per second (USER_HZ), for /proc CPU times. */
function clockTicksPerSecond(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

export class ChildServer {
  private readonly output: string[] = [];
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split(/\r?\n/)) {
        if (line.length === 0) continue;
        this.output.push(line);
        if (this.output.length > OUTPUT_TAIL_LINES) this.output.shift();
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', (code, signal) => {
      this.exited = { code, signal };
    });
  }

  /** Spawns `node <script>` with PORT/HOST/TOOLS and waits until it answers HTTP. */
  static async start(
    script: string,
    env: Readonly<Record<string, string>>,
    tools: number,
    readyTimeoutMs = 30_000,
  ): Promise<ChildServer> {
    const port = await freePort();
    const child = spawn(process.execPath, [script], {
      env: {
        ...process.env,
        ...env,
        NODE_ENV: 'production',
        HOST: DEFAULT_HOST,
        PORT: String(port),
        TOOLS: String(tools),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ChildServer(child, `http://${DEFAULT_HOST}:${port}${MCP_PATH}`);
    const deadline = Date.now() + readyTimeoutMs;
    while (Date.now() < deadline) {
      if (server.exited) {
        throw new Error(`server exited (code ${server.exited.code}) before answering:\n${server.tail()}`);
      }
      if (await answersHttp(server.url)) return server;
      await sleep(100);
    }
    await server.stop();
    throw new Error(`server did not answer within ${readyTimeoutMs} ms:\n${server.tail()}`);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * CPU time (user + system, all threads) the server process has used so far, in seconds, from
   * /proc (Linux); undefined elsewhere. 10 ms resolution at the usual 100 ticks per second.
   */
  cpuSeconds(): number | undefined {
    if (this.child.pid === undefined || this.exited) return undefined;
    try {
      const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      // Fields after "pid (comm) " start at field 3 (state); utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond();
    } catch {
      return undefined;
    }
  }

  get hasExited(): boolean {
    return this.exited !== undefined;
  }

  tail(): string {
    return this.output.map((line) => `    | ${line}`).join('\n');
  }

  /** SIGTERM, then SIGKILL after a grace period; resolves once the child is gone. */
  async stop(graceMs = 3000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }
}
