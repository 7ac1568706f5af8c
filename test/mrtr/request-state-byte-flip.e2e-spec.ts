import type { RawResponse } from '../support/raw-mcp.js';
import type { RunningApp } from '../support/start-app.js';
import { startMrtrApp } from './mrtr-app.js';
import { callTool, expectComplete, expectInputRequired, flipByte, INVALID_STATE_MESSAGE } from './mrtr-wire.js';
import { MrtrTools, mrtrModule } from './mrtr.fixtures.js';

const CONCURRENCY = 8;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ANSWERS = {
  'elicit-1': { action: 'accept', content: { name: 'Ada' } },
  'elicit-2': { action: 'accept', content: { age: 36 } },
};

/** Runs `task` over `items` with at most CONCURRENCY requests in flight. */
async function pool<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

/** Byte 0 is the format version, bytes 1–4 the key id (both authenticated as AAD), the rest nonce, ciphertext and tag. */
function expectedReason(index: number): string {
  if (index === 0) return 'unsupported_version';
  if (index <= 4) return 'unknown_key';
  return 'authentication_failed';
}

describe('every single-byte change of a real requestState is refused (express)', () => {
  let server: RunningApp;
  let tools: MrtrTools;
  let token: string;

  const retryWith = (requestState: string): Promise<RawResponse> =>
    callTool(server.url, 'three_questions', {}, { requestState, inputResponses: ANSWERS });

  beforeAll(async () => {
    server = await startMrtrApp(mrtrModule(), 'express');
    tools = server.app.get(MrtrTools);
    // A token carrying one answered and one pending slot: a real mid-flow token.
    const r1 = expectInputRequired(await callTool(server.url, 'three_questions'));
    const r2 = expectInputRequired(
      await callTool(
        server.url,
        'three_questions',
        {},
        { requestState: r1.requestState, inputResponses: { 'elicit-1': ANSWERS['elicit-1'] } },
      ),
    );
    token = r2.requestState;
  });
  afterAll(async () => {
    await server.close();
  });

  it('inverting each byte in turn: every variant → -32602 / HTTP 400 with the reason for that byte, and the handler never runs', async () => {
    const length = Buffer.from(token, 'base64url').length;
    expect(length).toBeGreaterThan(5 + 12 + 16);
    const before = tools.counter.of('three_questions');
    const indexes = Array.from({ length }, (_, i) => i);

    const outcomes = await pool(indexes, async (index) => {
      const r = await retryWith(flipByte(token, index));
      return {
        index,
        status: r.status,
        code: r.json?.error?.code,
        message: r.json?.error?.message,
        reason: r.json?.error?.data?.reason,
      };
    });

    const unexpected = outcomes.filter(
      (o) =>
        o.status !== 400 ||
        o.code !== -32602 ||
        o.message !== INVALID_STATE_MESSAGE ||
        o.reason !== expectedReason(o.index),
    );
    expect(unexpected).toEqual([]);
    expect(outcomes).toHaveLength(length);
    expect(tools.counter.of('three_questions')).toBe(before);
    console.log(
      `byte-flip: ${length} bytes (${token.length} base64url characters), ${outcomes.length} variants, all refused`,
    );
  });

  it('replacing each character in turn with another base64url character: every variant is refused', async () => {
    const before = tools.counter.of('three_questions');
    const variants = [...token].map((ch, i) => {
      const other = BASE64URL[(BASE64URL.indexOf(ch) + 1) % BASE64URL.length]!;
      return token.slice(0, i) + other + token.slice(i + 1);
    });
    const outcomes = await pool(variants, async (variant) => {
      const r = await retryWith(variant);
      return { status: r.status, code: r.json?.error?.code, reason: r.json?.error?.data?.reason as string };
    });
    expect(outcomes.filter((o) => o.status !== 400 || o.code !== -32602)).toEqual([]);
    const reasons = ['unsupported_version', 'unknown_key', 'authentication_failed', 'malformed'];
    expect(outcomes.filter((o) => !reasons.includes(o.reason))).toEqual([]);
    expect(outcomes).toHaveLength(token.length);
    expect(tools.counter.of('three_questions')).toBe(before);
  });

  it('the untouched token still works afterwards (so the refusals above are about the change, not the token)', async () => {
    const r3 = expectInputRequired(await retryWith(token));
    expect(Object.keys(r3.inputRequests)).toEqual(['elicit-3']);
    const done = expectComplete(
      await callTool(
        server.url,
        'three_questions',
        {},
        {
          requestState: r3.requestState,
          inputResponses: { 'elicit-3': { action: 'accept', content: { color: 'red' } } },
        },
      ),
    );
    expect(done.structuredContent).toEqual({ name: 'Ada', age: 36, color: 'red' });
  });
});
