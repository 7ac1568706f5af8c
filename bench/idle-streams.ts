// Idle open streams (issue 29, item 4): what N idle `subscriptions/listen` streams (default 10,000)
// and, on a fresh server, S 2025-era sessions each with its GET stream (default 1,000) cost one
// server node: RSS and heap per stream (after a forced GC in the server), file descriptors, and
// tools/call p50/p99 from a closed loop with the streams open against the same loop on a control
// server of the same kind that holds none (rounds alternate between the two; medians reported).
// The servers and the client that holds the streams run in child processes (bench/idle-streams/);
// this process only measures latency. Reported, never asserted.
//
//   node --import ./test/stdio/swc-register.mjs bench/idle-streams.ts [--adapter fastify|express]
//        [--streams 10000] [--sessions 1000] [--seconds 5] [--rounds 3] [--connections 10] [--json file]
//        [--snapshots dir]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { option } from './cli-option.js';
import { hold, type HolderMode } from './idle-streams/holder.js';
import { closedLoop, type Latency } from './idle-streams/call-loop.js';
import type { GcTotals } from './idle-streams/gc-totals.js';
import { serve } from './idle-streams/server.js';
import type { ServerMeasure } from './idle-streams/server-measure.js';

const STREAMS = option('streams', 10_000);
const SESSIONS = option('sessions', 1_000);
const SECONDS = option('seconds', 5);
const CONNECTIONS = option('connections', 10);
const ROUNDS = option('rounds', 3);
/** Ours on both adapters, then the floors: a bare node:http server and a bare Fastify route (listen only). */
const ADAPTERS = option('adapter') ? [option('adapter')!] : ['fastify', 'express', 'node', 'fastify-bare'];
const REFERENCES = new Set(['node', 'fastify-bare']);
const JSON_OUT = option('json');
/** A folder: heap snapshots of the server before and with the streams open (see idle-streams/snapshot-diff.ts). */
const SNAPSHOTS = option('snapshots');
const SELF = fileURLToPath(import.meta.url);

interface ScenarioResult {
  scenario: 'listen' | 'legacy';
  adapter: string;
  streams: number;
  openMs: number;
  lost: number;
  before: ServerMeasure;
  open: ServerMeasure;
  closed: ServerMeasure;
  rssPerStreamKb: number;
  heapPerStreamKb: number;
  fdsPerStream: number;
  /** Medians over the rounds: the control server without streams, the measured one with them. */
  without: Round;
  with: Round;
  rounds: { without: Round[]; with: Round[] };
  p99Ratio: number;
}

/** A child process of this same file in `role`, its IPC messages read one at a time. */
class Child {
  readonly process: ChildProcess;
  private readonly inbox: unknown[] = [];
  private waiting: ((message: unknown) => void) | undefined;
  private exited = false;

  constructor(role: string, args: string[], extraExecArgv: string[] = []) {
    this.process = spawn(process.execPath, [...process.execArgv, ...extraExecArgv, SELF, '--role', role, ...args], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.process.on('message', (message) => {
      if (this.waiting) {
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting(message);
      } else this.inbox.push(message);
    });
    this.process.once('exit', () => (this.exited = true));
  }

  next<T>(timeoutMs = 300_000): Promise<T> {
    if (this.inbox.length > 0) return Promise.resolve(this.inbox.shift() as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('a child did not answer in time')), timeoutMs);
      const onExit = () => reject(new Error('a child exited'));
      this.process.once('exit', onExit);
      this.waiting = (message) => {
        clearTimeout(timer);
        this.process.off('exit', onExit);
        resolve(message as T);
      };
    });
  }

  async ask<T>(message: object): Promise<T> {
    this.process.send(message);
    return this.next<T>();
  }

  /** Ends the child: its IPC channel first (a clean exit), then SIGKILL if it lingers. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    if (this.process.connected) this.process.disconnect();
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

let measureId = 1;
const measure = (server: Child) =>
  server.ask<{ measure: ServerMeasure }>({ id: measureId++, op: 'measure' }).then((m) => m.measure);

/** With --snapshots: the server writes a heap snapshot (a full GC first) as `<dir>/<name>.heapsnapshot`. */
async function snapshot(server: Child, name: string): Promise<void> {
  if (SNAPSHOTS) await server.ask({ id: measureId++, op: 'snapshot', file: `${SNAPSHOTS}/${name}.heapsnapshot` });
}

/** The soft fd limit of this process (children inherit it). */
function fdLimit(): number {
  const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return Number(line?.[1] ?? Infinity);
}

/** Waits until the server's fds fell back to within `slack` of `target` (closed streams released). */
async function settle(server: Child, target: number, slack = 20): Promise<ServerMeasure> {
  const until = Date.now() + 30_000;
  for (;;) {
    const now = await measure(server);
    if (now.fds <= target + slack || Date.now() > until) return now;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A latency round, with the GC time the server spent meanwhile (major: full mark-compacts). */
interface Round extends Latency {
  gcMajor: number;
  gcMajorMs: number;
  gcOtherMs: number;
}

async function timedRound(target: Child, url: string): Promise<Round> {
  const gc = () => target.ask<{ gc: GcTotals }>({ id: measureId++, op: 'gc' }).then((m) => m.gc);
  const start = await gc();
  const latency = await closedLoop(url, CONNECTIONS, SECONDS);
  const end = await gc();
  return {
    ...latency,
    gcMajor: end.major - start.major,
    gcMajorMs: Number((end.majorMs - start.majorMs).toFixed(1)),
    gcOtherMs: Number((end.otherMs - start.otherMs).toFixed(1)),
  };
}

/** Median of the rounds' figures (and their calls summed). */
function median(rounds: Round[]): Round {
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    calls: rounds.reduce((sum, r) => sum + r.calls, 0),
    p50: mid(rounds.map((r) => r.p50)),
    p99: mid(rounds.map((r) => r.p99)),
    gcMajor: mid(rounds.map((r) => r.gcMajor)),
    gcMajorMs: mid(rounds.map((r) => r.gcMajorMs)),
    gcOtherMs: mid(rounds.map((r) => r.gcOtherMs)),
  };
}

/**
 * One measured server (its memory before, with and after the streams) beside a control server of
 * the same kind that never gets a stream: the latency rounds alternate between the two, so that
 * the load of the other agents on this machine weighs on "with" and "without" alike.
 */
async function scenario(mode: HolderMode, adapter: string, count: number): Promise<ScenarioResult> {
  const args = ['--adapter', adapter, '--sessions', String(SESSIONS)];
  const server = new Child('server', args, ['--expose-gc']);
  const control = new Child('server', args, ['--expose-gc']);
  let holder: Child | undefined;
  try {
    const { port } = await server.next<{ port: number }>(60_000);
    const url = `http://127.0.0.1:${port}/mcp`;
    const controlUrl = `http://127.0.0.1:${(await control.next<{ port: number }>(60_000)).port}/mcp`;
    // Warm-up: JIT, pools and the connections of the loop exist before the first figure.
    await closedLoop(url, CONNECTIONS, Math.min(2, SECONDS));
    await closedLoop(controlUrl, CONNECTIONS, Math.min(2, SECONDS));
    const before = await measure(server);
    await snapshot(server, `${mode}-${adapter}-before`);

    holder = new Child('holder', ['--mode', mode, '--url', url, '--count', String(count)]);
    const opened = await holder.next<{ opened?: number; ms?: number; error?: string }>(600_000);
    if (opened.error !== undefined) throw new Error(`opening the streams failed: ${opened.error}`);
    const open = await measure(server);
    await snapshot(server, `${mode}-${adapter}-open`);
    const without: Round[] = [];
    const withStreams: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await timedRound(control, controlUrl));
      withStreams.push(await timedRound(server, url));
    }
    const { lost } = await holder.ask<{ lost: number }>({ op: 'lost' });
    await holder.ask({ op: 'close' });
    await holder.stop();
    holder = undefined;
    const closed = await settle(server, before.fds);
    await snapshot(server, `${mode}-${adapter}-closed`);
    const per = (key: keyof ServerMeasure) => Number(((open[key] - before[key]) / count).toFixed(2));
    const withoutMedian = median(without);
    const withMedian = median(withStreams);
    return {
      scenario: mode,
      adapter,
      streams: count,
      openMs: opened.ms!,
      lost,
      before,
      open,
      closed,
      rssPerStreamKb: per('rssKb'),
      heapPerStreamKb: per('heapUsedKb'),
      fdsPerStream: per('fds'),
      without: withoutMedian,
      with: withMedian,
      rounds: { without, with: withStreams },
      p99Ratio: Number((withMedian.p99 / withoutMedian.p99).toFixed(3)),
    };
  } finally {
    await holder?.stop();
    await server.stop();
    await control.stop();
  }
}

function table(results: ScenarioResult[]): string {
  const head = [
    'scenario',
    'adapter',
    'streams',
    'RSS KB/stream',
    'heap KB/stream',
    'fds/stream',
    'p50 without',
    'p50 with',
    'p99 without',
    'p99 with',
    'RSS MB before → after close',
    'p99 with/without',
    'GC ms/round without → with',
    'lost',
  ];
  const rows = results.map((r) => [
    r.scenario === 'listen' ? 'subscriptions/listen' : '2025 session + GET',
    r.adapter,
    r.streams,
    r.rssPerStreamKb,
    r.heapPerStreamKb,
    r.fdsPerStream,
    r.without.p50,
    r.with.p50,
    r.without.p99,
    r.with.p99,
    `${(r.before.rssKb / 1024).toFixed(0)} → ${(r.closed.rssKb / 1024).toFixed(0)}`,
    r.p99Ratio,
    `${(r.without.gcMajorMs + r.without.gcOtherMs).toFixed(0)} → ${(r.with.gcMajorMs + r.with.gcOtherMs).toFixed(0)}`,
    r.lost,
  ]);
  return [head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

async function main(): Promise<void> {
  const needed = Math.max(STREAMS, SESSIONS) + 500;
  if (fdLimit() < needed) throw new Error(`the fd limit (${fdLimit()}) is below the ${needed} this run needs`);
  const results: ScenarioResult[] = [];
  for (const adapter of ADAPTERS) {
    if (STREAMS > 0) results.push(await scenario('listen', adapter, STREAMS));
    if (SESSIONS > 0 && !REFERENCES.has(adapter)) results.push(await scenario('legacy', adapter, SESSIONS));
  }
  const report = {
    node: process.version,
    date: new Date().toISOString(),
    seconds: SECONDS,
    connections: CONNECTIONS,
    rounds: ROUNDS,
    results,
  };
  console.log(JSON.stringify(report, null, 2));
  console.log(`\n${table(results)}`);
  if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(report, null, 2)}\n`);
}

const role = option('role');
if (role === 'server') void serve(option('adapter') ?? 'fastify', SESSIONS);
else if (role === 'holder') void hold(option('mode') as HolderMode, option('url')!, option('count', 0));
else
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
