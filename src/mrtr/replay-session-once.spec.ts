import { McpClock } from '../core/mcp-clock.js';
import type { ClientCapabilities, ElicitResult } from '../protocol/wire-types.js';
import { RequestedSchemaBuilder } from '../schema/requested-schema-builder.js';
import { AesGcmRequestStateCodec } from './aes-gcm-request-state-codec.js';
import { type InputRequiredException, isInputRequired } from './exceptions/input-required.exception.js';
import { RequestStateTooLargeException } from './exceptions/request-state-too-large.exception.js';
import { ReplaySession } from './replay-session.js';
import type { RequestBinding, RequestStatePayload } from './request-state-payload.js';
import { deserializeRequestState, serializeRequestState } from './request-state-serializer.js';

const NOW = 1_780_000_000_000;
const binding: RequestBinding = { method: 'tools/call', target: 'proxy', argsDigest: 'digest', principal: null };
const caps: ClientCapabilities = { elicitation: { form: {} } };
const clock = new (class extends McpClock {
  now = () => NOW;
})();
const codec = new AesGcmRequestStateCodec({ secrets: ['replay-session-once spec secret, long enough'] }, clock);
const schema = new RequestedSchemaBuilder().string('name').build();
const ask = (s: ReplaySession, message: string) =>
  (
    s.ask([
      { request: { method: 'elicitation/create', params: { message, requestedSchema: schema } } },
    ])[0] as ElicitResult
  ).content?.['name'];

/** The input-required signal a first question throws (the round ends there). */
function askedSignal(session: ReplaySession): InputRequiredException {
  try {
    ask(session, 'Name?');
  } catch (e) {
    if (isInputRequired(e)) return e;
    throw e;
  }
  throw new Error('expected the input-required signal');
}

type Outcome<R> = { done: R } | { state: string; keys: string[] };

/** One round of a flow, the state through the real codec (as the engine seals and opens it). */
async function round<R>(
  handler: (s: ReplaySession) => Promise<R>,
  state?: string,
  inputResponses?: Record<string, Record<string, unknown>>,
): Promise<Outcome<R>> {
  const session = new ReplaySession({
    binding,
    state: state === undefined ? undefined : codec.open(state),
    inputResponses,
    clientCapabilities: caps,
    now: NOW,
  });
  try {
    return { done: await handler(session) };
  } catch (e) {
    if (!isInputRequired(e)) throw e;
    return { state: codec.seal(session.nextPayload(e)), keys: Object.keys(e.inputRequests) };
  }
}

function pending<R>(outcome: Outcome<R>): { state: string; keys: string[] } {
  if ('done' in outcome) throw new Error(`expected input_required, got ${JSON.stringify(outcome.done)}`);
  return outcome;
}

describe('ReplaySession.once', () => {
  it('computes once per flow: later rounds get the sealed value back without computing', async () => {
    let computed = 0;
    const handler = async (s: ReplaySession) => {
      const quote = await s.once(async () => ({ total: 40 + ++computed }));
      const name = ask(s, `Pay ${quote.total}?`);
      const second = await s.once(() => `receipt-${++computed}`);
      return `${String(name)} ${quote.total} ${second}`;
    };
    const first = pending(await round(handler));
    expect(first.keys).toEqual(['elicit-1']);
    expect(computed).toBe(1);
    const last = await round(handler, first.state, { 'elicit-1': { action: 'accept', content: { name: 'Ann' } } });
    // The first value came from the state (41, not 42); the second was computed on the last run.
    expect(last).toEqual({ done: 'Ann 41 receipt-2' });
    expect(computed).toBe(2);
  });

  it('returns the JSON copy on every run, the first included', async () => {
    const seen: unknown[] = [];
    const handler = async (s: ReplaySession) => {
      seen.push(await s.once(() => ({ at: new Date(0), gone: undefined, n: 1 })));
      seen.push(await s.once(() => undefined));
      return ask(s, 'Name?');
    };
    const first = pending(await round(handler));
    await round(handler, first.state, { 'elicit-1': { action: 'accept', content: { name: 'Bo' } } });
    const copy = { at: '1970-01-01T00:00:00.000Z', n: 1 };
    expect(seen).toEqual([copy, null, copy, null]);
  });

  it('does not record a failing computation: the next run computes again', async () => {
    let attempts = 0;
    const handler = async (s: ReplaySession) => {
      const value = await s.once(() => {
        if (++attempts === 1) throw new Error('upstream down');
        return attempts;
      });
      return value;
    };
    await expect(round(handler)).rejects.toThrow('upstream down');
    expect(await round(handler)).toEqual({ done: 2 });
  });

  it('refuses a value JSON cannot carry', async () => {
    await expect(round(async (s) => s.once(() => BigInt(1)))).rejects.toThrow(TypeError);
    await expect(round(async (s) => s.once(() => () => 1))).rejects.toThrow(/must be JSON/);
  });

  it('seals only the values known when the round ends (a computation still running is not)', async () => {
    let release: (value: string) => void = () => undefined;
    const slow = new Promise<string>((resolve) => (release = resolve));
    const session = new ReplaySession({ binding, clientCapabilities: caps, now: NOW });
    await session.once(() => 'first');
    const running = session.once(() => slow);
    const signal = askedSignal(session);
    expect(session.nextPayload(signal).memos).toEqual(['first']);
    release('late');
    await running;
  });

  it('is bounded by limits.maxRequestStateChars: a value too large to seal fails the round', async () => {
    const small = new AesGcmRequestStateCodec(
      { secrets: ['replay-session-once spec secret, long enough'], maxTokenChars: 2000 },
      clock,
    );
    const session = new ReplaySession({ binding, clientCapabilities: caps, now: NOW });
    await session.once(() => 'x'.repeat(5000));
    const signal = askedSignal(session);
    expect(() => small.seal(session.nextPayload(signal))).toThrow(RequestStateTooLargeException);
  });

  it('travels in the compact JSON as "o", absent when there is none', () => {
    const payload: RequestStatePayload = {
      ...binding,
      flowId: 'f1',
      ledger: [],
      issuedAt: NOW,
      startedAt: NOW,
      memos: [{ a: 1 }, null, 'x'],
    };
    const text = serializeRequestState(payload);
    expect(JSON.parse(text).o).toEqual([{ a: 1 }, null, 'x']);
    expect(deserializeRequestState(text)).toEqual(payload);
    const none = serializeRequestState({ ...payload, memos: [] });
    expect(JSON.parse(none)).not.toHaveProperty('o');
    expect(() => deserializeRequestState(none.replace('"l":[]', '"l":[],"o":5'))).toThrow();
  });
});
