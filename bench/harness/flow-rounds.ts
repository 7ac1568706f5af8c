/**
 * The load loop of the MRTR flows (`flow1` ... `flow8`): N workers (the --connections setting)
 * each run whole flows of `confirm_steps {steps: n}` back to back: the first call, then n retries,
 * each carrying the accepting answer of its round and the requestState the round before returned.
 * One flow counts once its last answer (text "5") has arrived; its latency runs from the first
 * call to that answer. Every round of every flow is checked, in the measured run too. Each worker
 * keeps one keep-alive connection.
 */
import { Agent } from 'node:http';

import { ADD_ARGUMENTS, ADD_EXPECTED_TEXT, CONFIRM_STEPS_TOOL } from '../shared/bench-spec.js';
import { post } from './http-client.js';
import { walkFlow, type FlowCall } from './mrtr-flow.js';
import { runRoundsFor, type RoundDriver, type RoundOutcome } from './round-loop.js';
import { checkTextResult } from './rpc-checks.js';

interface FlowResult extends RoundOutcome {
  readonly problem?: string;
  readonly bytes: number;
  readonly raw: string;
  readonly tokenChars: readonly number[];
}

export const stepsCall = (steps: number, args: { a: number; b: number } = ADD_ARGUMENTS): FlowCall => ({
  name: CONFIRM_STEPS_TOOL.name,
  args: { steps, ...args },
});

/** One whole flow of `steps` rounds on `agent`. Never rejects. */
async function flow(url: string, steps: number, agent: Agent): Promise<FlowResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  try {
    const walked = await walkFlow(url, stepsCall(steps), steps, agent);
    if (typeof walked === 'string') {
      const outcome = /HTTP [^2]/.test(walked) ? 'non2xx' : 'mismatch';
      return { outcome, problem: walked, latencyMs: elapsed(), bytes: 0, raw: '', tokenChars: [] };
    }
    const last = await post(url, walked.next.headers, walked.next.body, 10_000, agent);
    const problem = checkTextResult(last.status, last.message, ADD_EXPECTED_TEXT);
    const outcome = problem === null ? 'ok' : last.status >= 200 && last.status < 300 ? 'mismatch' : 'non2xx';
    return {
      outcome,
      ...(problem !== null && { problem: `the last round: ${problem}` }),
      latencyMs: elapsed(),
      bytes: last.bytes,
      raw: last.raw,
      tokenChars: walked.tokenChars,
    };
  } catch (error) {
    const message = (error as Error).message;
    const outcome = /timed out/.test(message) ? 'timeout' : 'error';
    return { outcome, problem: message, latencyMs: elapsed(), bytes: 0, raw: '', tokenChars: [] };
  }
}

/** A driver of flows of `steps` rounds on `url` with `workerCount` workers. */
export async function prepareFlows(url: string, workerCount: number, steps: number): Promise<RoundDriver> {
  const agents = Array.from({ length: workerCount }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  return {
    async probe() {
      const result = await flow(url, steps, agents[0]!);
      const problem = result.outcome === 'ok' ? null : `${result.outcome}: ${result.problem ?? ''}`;
      return { problem, bytes: result.bytes, raw: result.raw, tokenChars: result.tokenChars };
    },
    async warmUp(settings) {
      if (settings.warmupSec > 0) await runRoundsFor(agents, settings.warmupSec, (agent) => flow(url, steps, agent));
    },
    measure: (settings) => runRoundsFor(agents, settings.durationSec, (agent) => flow(url, steps, agent)),
    close() {
      for (const agent of agents) agent.destroy();
    },
  };
}
