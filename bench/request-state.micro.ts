/**
 * In-process micro-benchmark of our requestState codec: AES-256-GCM seal + open of payloads
 * whose ledger holds 1, 10 and 50 answered elicitations, with the token size each produces.
 * For reference it also times the SDK's HMAC codec (createRequestStateCodec mint + verify,
 * async WebCrypto) on the same payloads.
 *
 *   node dist/bench/request-state.micro.js [--smoke] [--json]
 *
 * --json prints one JSON document instead of the table (the orchestrator reads it).
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';

import { AesGcmRequestStateCodec } from '../src/mrtr/aes-gcm-request-state-codec.js';
import { SystemClock } from '../src/core/mcp-clock.js';
import type { RequestStatePayload } from '../src/mrtr/request-state-payload.js';
import { renderMicro, type MicroRow } from './harness/micro-report.js';
import { BENCH_MRTR_SECRET } from './shared/bench-spec.js';

export const LEDGER_SIZES = [1, 10, 50] as const;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/** A payload as the engine builds it for `confirm_add`-like flows: `size` answered elicitations. */
export function samplePayload(size: number, now = Date.now()): RequestStatePayload {
  return {
    method: 'tools/call',
    target: 'confirm_add',
    argsDigest: digest('{"a":2,"b":3}'),
    principal: null,
    // As ReplaySession makes it: 16 random bytes, base64url (a fixed value keeps runs comparable).
    flowId: 'bench-flow-id-01234567',
    ledger: Array.from({ length: size }, (_, i) => ({
      key: `elicit-${i + 1}`,
      kind: 'elicitation' as const,
      fingerprint: digest(`question ${i + 1}`),
      answer: { action: 'accept' as const, content: { ok: true, choice: `option-${(i % 5) + 1}` } },
    })),
    issuedAt: now,
    startedAt: now,
  };
}

/** Runs `op` repeatedly for about `ms` milliseconds; returns microseconds per call. */
function timeSync(ms: number, op: () => void): number {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6));
  const start = process.hrtime.bigint();
  let count = 0;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 50; i++) op();
    count += 50;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / 1e3 / count;
}

async function timeAsync(ms: number, op: () => Promise<unknown>): Promise<number> {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6));
  const start = process.hrtime.bigint();
  let count = 0;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 10; i++) await op();
    count += 10;
    now = process.hrtime.bigint();
  }
  return Number(now - start) / 1e3 / count;
}

export async function runMicro(measureMs: number): Promise<MicroRow[]> {
  const warmupMs = Math.max(50, measureMs / 4);
  const rows: MicroRow[] = [];
  const ours = new AesGcmRequestStateCodec({ secrets: [BENCH_MRTR_SECRET] }, new SystemClock());
  const sdk = createRequestStateCodec<RequestStatePayload>({ key: BENCH_MRTR_SECRET });
  const noContext = {} as ServerContext;

  for (const size of LEDGER_SIZES) {
    const payload = samplePayload(size);
    const token = ours.seal(payload);
    if (!isDeepStrictEqual(ours.open(token), payload)) {
      throw new Error(`aes-gcm codec: open(seal(payload)) differs from the payload for a ledger of ${size}`);
    }
    const roundTrip = () => void ours.open(ours.seal(payload));
    timeSync(warmupMs, roundTrip);
    const sealUs = timeSync(measureMs, () => void ours.seal(payload));
    const openUs = timeSync(measureMs, () => void ours.open(token));
    const roundTripUs = timeSync(measureMs, roundTrip);
    rows.push({
      codec: 'aes-gcm (ours)',
      ledger: size,
      tokenBytes: Buffer.byteLength(token),
      sealUs,
      openUs,
      roundTripUs,
      roundTripOpsPerSec: 1e6 / roundTripUs,
    });
  }

  for (const size of LEDGER_SIZES) {
    const payload = samplePayload(size);
    const token = await sdk.mint(payload);
    if (!isDeepStrictEqual(await sdk.verify(token, noContext), payload)) {
      throw new Error(`sdk codec: verify(mint(payload)) differs from the payload for a ledger of ${size}`);
    }
    const roundTrip = async () => sdk.verify(await sdk.mint(payload), noContext);
    await timeAsync(warmupMs, roundTrip);
    const sealUs = await timeAsync(measureMs, () => sdk.mint(payload));
    const openUs = await timeAsync(measureMs, () => sdk.verify(token, noContext));
    const roundTripUs = await timeAsync(measureMs, roundTrip);
    rows.push({
      codec: 'sdk hmac (reference)',
      ledger: size,
      tokenBytes: Buffer.byteLength(token),
      sealUs,
      openUs,
      roundTripUs,
      roundTripOpsPerSec: 1e6 / roundTripUs,
    });
  }
  return rows;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const args = process.argv.slice(2);
  const smoke = args.includes('--smoke');
  runMicro(smoke ? 100 : 1000)
    .then((rows) => {
      if (args.includes('--json')) process.stdout.write(`${JSON.stringify({ rows })}\n`);
      else process.stdout.write(`requestState seal + open (in-process, sequential)\n${renderMicro(rows)}\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
