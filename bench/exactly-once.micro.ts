/**
 * In-process micro-benchmark of exactly-once completion: what `@McpTool({ exactlyOnce: true })`
 * adds to a final round, measured around a round that does nothing (so the figure is the gate's own
 * cost), for a first completion (claim, run, record) and for a replay (answered from the record).
 *
 *   node bench/out/build/bench/exactly-once.micro.js [--smoke]
 *
 * Compare the microseconds with a final round's server CPU in bench/RESULTS.md (the MRTR retry
 * workloads): that ratio is the store's cost on a final round.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';

import { ExactlyOnceCompletion } from '../src/calls/exactly-once-completion.js';
import { resolveMcpOptions } from '../src/mcp.options.js';
import { InMemoryFlowStore } from '../src/mrtr/in-memory-flow.store.js';
import { SystemClock } from '../src/core/mcp-clock.js';
import type { ReplaySession } from '../src/mrtr/replay-session.js';

const RESULT = { resultType: 'complete', content: [{ type: 'text', text: '5' }] };
const round = async () => RESULT;

/** Runs `op` for about `ms` milliseconds, `batch` at a time; returns microseconds per call. */
async function timeAsync(ms: number, op: (i: number) => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(ms * 1e6);
  let calls = 0;
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 1000; i++) await op(calls + i);
    calls += 1000;
  }
  return Number(process.hrtime.bigint() - start) / 1000 / calls;
}

export async function runExactlyOnceMicro(ms: number): Promise<Record<string, number>> {
  const options = resolveMcpOptions({ name: 'bench', version: '1.0.0', mrtr: { exactlyOnce: true } });
  const gate = new ExactlyOnceCompletion(new InMemoryFlowStore(new SystemClock()), options.mrtr);
  const now = Date.now();
  const flowIds = Array.from({ length: 200_000 }, () => randomBytes(16).toString('base64url'));
  const session = (flowId: string) => ({ isRetry: true, flowId, startedAt: now }) as unknown as ReplaySession;
  const replayed = session('a-completed-flow');
  await gate.run(replayed, round);

  const bare = await timeAsync(ms, () => round());
  const first = await timeAsync(ms, (i) => gate.run(session(flowIds[i % flowIds.length]!), round));
  const replay = await timeAsync(ms, () => gate.run(replayed, round));
  return { bareRoundMicros: bare, firstCompletionMicros: first - bare, replayMicros: replay - bare };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const smoke = process.argv.includes('--smoke');
  const figures = await runExactlyOnceMicro(smoke ? 100 : 2000);
  console.log('exactly-once completion, in process (µs per final round, over a round that does nothing):');
  console.log(`  first completion (claim, run, record): +${figures.firstCompletionMicros!.toFixed(2)} µs`);
  console.log(`  replayed final round (answered from the record): +${figures.replayMicros!.toFixed(2)} µs`);
}
