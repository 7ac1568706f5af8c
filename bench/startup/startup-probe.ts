/**
 * One timed start of one benchmark server: spawn the compiled entry, poll it over loopback with
 * `tools/call add` until it answers 200 with the text "5", note when it announced "listening",
 * read its CPU time at that moment, check (untimed) that `tools/list` has every tool it should,
 * then stop it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from '../../test/support/free-port.js';
import { post, type PostResult } from '../harness/http-client.js';
import {
  ADD_ARGUMENTS,
  ADD_EXPECTED_TEXT,
  ADD_TOOL,
  DEFAULT_HOST,
  MCP_PATH,
  PROTOCOL_VERSION,
  REQUEST_ENVELOPE,
} from '../shared/bench-spec.js';
import type { StartupTarget } from './startup-targets.js';

/** Milliseconds between two polls while the server is not accepting connections yet. */
const POLL_INTERVAL_MS = 5;
const START_TIMEOUT_MS = 30_000;

export interface StartupSample {
  readonly target: string;
  /** Spawn to the first correct answer, in ms. */
  readonly totalMs: number;
  /** Spawn to the child's "listening on" line reaching the parent, in ms. */
  readonly listeningMs: number;
  /** The "listening" line to the first correct answer, in ms. */
  readonly firstAnswerMs: number;
  /** CPU time (user + system, all threads) the child had used when it answered, in ms (10 ms steps). */
  readonly cpuMs: number;
  /** The same for the main thread alone (without GC and compiler helper threads), in ms. */
  readonly mainThreadCpuMs: number;
  /** Failed polls (connection refused) before the answer. */
  readonly polls: number;
}

const HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL_VERSION,
};

function body(id: number, method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: REQUEST_ENVELOPE } });
}

const CALL_BODY = body(1, 'tools/call', { name: ADD_TOOL.name, arguments: ADD_ARGUMENTS });
const CALL_HEADERS = { ...HEADERS, 'mcp-method': 'tools/call', 'mcp-name': ADD_TOOL.name };

/** Null when `answer` is the right answer to `tools/call add(2, 3)`, else what is wrong. */
function callProblem(answer: PostResult): string | null {
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.raw.slice(0, 200)}`;
  const message = answer.message as { id?: unknown; result?: { content?: Array<{ text?: unknown }> } } | undefined;
  if (message?.id !== 1) return `not an answer to id 1: ${answer.raw.slice(0, 200)}`;
  const text = message.result?.content?.[0]?.text;
  return text === ADD_EXPECTED_TEXT ? null : `expected text "5": ${answer.raw.slice(0, 200)}`;
}

/** Null when the server lists `count` tools, else what is wrong. */
async function listProblem(url: string, count: number): Promise<string | null> {
  const answer = await post(url, { ...HEADERS, 'mcp-method': 'tools/list' }, body(2, 'tools/list', {}));
  const tools = (answer.message as { result?: { tools?: unknown[] } } | undefined)?.result?.tools;
  if (answer.status !== 200 || !Array.isArray(tools)) return `tools/list: HTTP ${answer.status}`;
  return tools.length === count ? null : `tools/list has ${tools.length} tools, expected ${count}`;
}

let clockTicks: number | undefined;

/**
 * User + system CPU time in ms from /proc (Linux; NaN elsewhere): of the whole child with `path`
 * `${pid}/stat`, of its main thread (JavaScript's, the startup's critical path) with `${pid}/task/${pid}/stat`.
 */
function cpuMsOf(path: string): number {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const stat = readFileSync(`/proc/${path}`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return NaN;
  }
}

/** SIGTERM, SIGKILL after 3 s; resolves once the child is gone. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts `target` once on the Node binary `node` and times it. */
export async function timeStartup(node: string, target: StartupTarget): Promise<StartupSample> {
  const port = await freePort();
  const url = `http://${DEFAULT_HOST}:${port}${MCP_PATH}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...target.env,
    NODE_ENV: 'production',
    HOST: DEFAULT_HOST,
    PORT: String(port),
    TOOLS: String(target.tools),
  };
  // The app's optional modules stay off: this times the plain bench app.
  delete env['MOCAPI_BENCH_OTEL'];
  delete env['MOCAPI_BENCH_THROTTLE'];
  delete env['NODE_OPTIONS'];

  const output: string[] = [];
  let listeningAt: number | undefined;
  let wake: (() => void) | undefined;
  const started = performance.now();
  const child = spawn(node, [...target.nodeArgs, target.script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output.push(text);
    if (listeningAt === undefined && text.includes(' listening on ')) {
      listeningAt = performance.now();
      wake?.(); // poll at once rather than at the end of the current interval
    }
  });
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));

  try {
    let polls = 0;
    while (performance.now() - started < START_TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
      let answer: PostResult | undefined;
      try {
        answer = await post(url, CALL_HEADERS, CALL_BODY, START_TIMEOUT_MS);
      } catch {
        polls++;
        await Promise.race([sleep(POLL_INTERVAL_MS), new Promise<void>((resolve) => (wake = resolve))]);
        wake = undefined;
        continue;
      }
      const answeredAt = performance.now();
      const cpuMs = cpuMsOf(`${child.pid}/stat`);
      const mainThreadCpuMs = cpuMsOf(`${child.pid}/task/${child.pid}/stat`);
      const problem = callProblem(answer) ?? (target.listed ? await listProblem(url, target.tools) : null);
      if (problem) throw new Error(problem);
      const listening = listeningAt ?? answeredAt;
      return {
        target: target.id,
        totalMs: answeredAt - started,
        listeningMs: listening - started,
        firstAnswerMs: answeredAt - listening,
        cpuMs,
        mainThreadCpuMs,
        polls,
      };
    }
    throw new Error(`no answer within ${START_TIMEOUT_MS} ms`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${target.id}: ${reason}\n${output.join('').slice(-2000)}`, { cause: error });
  } finally {
    await stop(child);
  }
}
