/**
 * In-process breakdown of what the replay engine does on a requestState retry, against the same
 * engine running a plain call. Every retry carries its own token (minted beforehand by real first
 * rounds), as every retry of a real flow does. The steps add up, each row timing everything up to it:
 *
 *   open       AesGcmRequestStateCodec.open: base64url check and decode, AES-256-GCM open, parse
 *   begin      MrtrEngine.begin: open + the binding check (the arguments' canonical digest)
 *   retry      begin + run of the handler: its elicit() replayed from the ledger (question built,
 *              fingerprinted, answer checked against the schema and copied), the handler's value
 *
 * and for scale: a plain call through begin + run (no token), and a first round (the question
 * asked, a token sealed). The HTTP-level figures are the bench's `call` and `mrtr-fresh` rows.
 *
 *   node bench/out/build/bench/retry-breakdown.micro.js [--smoke]
 */
import { pathToFileURL } from 'node:url';

import { SystemClock } from '../src/core/mcp-clock.js';
import { AesGcmRequestStateCodec } from '../src/mrtr/aes-gcm-request-state-codec.js';
import { ElicitationContext } from '../src/mrtr/elicitation-context.js';
import { resolveMrtrOptions } from '../src/mrtr/mcp-mrtr.options.js';
import { type MrtrCall, MrtrEngine } from '../src/mrtr/mrtr-engine.js';
import type { McpExchange } from '../src/protocol/mcp-exchange.js';
import { BENCH_MRTR_SECRET, CONFIRM_ADD_TOOL } from './shared/bench-spec.js';

export interface BreakdownRow {
  readonly step: string;
  readonly us: number;
}

const CAPABILITIES = { elicitation: {} };
const EXCHANGE = { clientCapabilities: CAPABILITIES } as unknown as McpExchange;

/** Runs `op(i)` for i = 0..count-1 after a warm-up of the same; microseconds per call. */
async function timed(count: number, op: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(count, 2000); i++) await op(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(i);
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

export async function runRetryBreakdown(count: number): Promise<BreakdownRow[]> {
  const options = resolveMrtrOptions({ secrets: [BENCH_MRTR_SECRET] }, []);
  const clock = new SystemClock();
  const codec = new AesGcmRequestStateCodec(options, clock, { warn: () => undefined });
  const engine = new MrtrEngine(codec, clock, options);
  const elicitation = new ElicitationContext();
  const confirmAdd = async (): Promise<string> => {
    const answer = await elicitation.elicit(CONFIRM_ADD_TOOL.message, (s) => s.boolean(CONFIRM_ADD_TOOL.field));
    return answer.action === 'accept' && answer.content.ok ? '5' : 'cancelled';
  };
  const add = (): string => '5';
  const call = (extra: Partial<MrtrCall> = {}): MrtrCall => ({
    method: 'tools/call',
    target: CONFIRM_ADD_TOOL.name,
    arguments: { a: 2, b: 3 },
    requestState: undefined,
    inputResponses: undefined,
    clientCapabilities: CAPABILITIES,
    principal: null,
    ...extra,
  });
  const firstRound = async () => {
    const outcome = await engine.run(engine.begin(call()), EXCHANGE, confirmAdd);
    if (outcome.kind !== 'input_required' || !outcome.round.inputRequests || !outcome.round.requestState) {
      throw new Error('the first round did not ask its question');
    }
    return { inputRequests: outcome.round.inputRequests, requestState: outcome.round.requestState };
  };

  const first = await firstRound();
  const [key] = Object.keys(first.inputRequests);
  const inputResponses = { [key!]: { action: 'accept', content: { [CONFIRM_ADD_TOOL.field]: true } } };
  const tokens: string[] = [];
  for (let i = 0; i < count + Math.min(count, 2000); i++) tokens.push((await firstRound()).requestState);
  // The warm-up uses the first tokens again; the measured runs use each token once.
  const retry = (i: number) => call({ requestState: tokens[i], inputResponses });

  const rows: BreakdownRow[] = [];
  rows.push({
    step: 'plain call (begin + run, no token)',
    us: await timed(count, () => engine.run(engine.begin(call()), EXCHANGE, add)),
  });
  rows.push({ step: 'open (AES-256-GCM + parse)', us: await timed(count, (i) => codec.open(tokens[i]!)) });
  rows.push({ step: 'begin (open + binding check)', us: await timed(count, (i) => engine.begin(retry(i))) });
  rows.push({
    step: 'retry (begin + handler replay)',
    us: await timed(count, async (i) => {
      const outcome = await engine.run(engine.begin(retry(i)), EXCHANGE, confirmAdd);
      if (outcome.kind !== 'complete' || outcome.value !== '5') throw new Error('the retry did not complete with "5"');
    }),
  });
  rows.push({ step: 'first round (question asked, token sealed)', us: await timed(count, () => firstRound()) });
  return rows;
}

export function renderBreakdown(rows: readonly BreakdownRow[]): string {
  const width = Math.max(...rows.map((row) => row.step.length));
  return rows.map((row) => `${row.step.padEnd(width)}  ${row.us.toFixed(1).padStart(6)} us`).join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = process.argv.includes('--smoke') ? 2000 : 50_000;
  runRetryBreakdown(count).then(
    (rows) => console.log(renderBreakdown(rows)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
