import type { ElicitResult, InputRequest } from '../protocol/wire-types.js';
import { RequestedSchemaBuilder } from '../schema/requested-schema-builder.js';
import { ElicitationLedgerMismatchException } from './exceptions/elicitation-ledger-mismatch.exception.js';
import { isInputRequired } from './exceptions/input-required.exception.js';
import { type ChangedQuestionPolicy, type PendingInput, ReplaySession } from './replay-session.js';
import type { RequestBinding, RequestStatePayload } from './request-state-payload.js';

const NOW = 1_780_000_000_000;
const binding: RequestBinding = { method: 'tools/call', target: 'book', argsDigest: 'd', principal: null };

const choice = (times: string[], whenChanged?: ChangedQuestionPolicy): PendingInput => ({
  whenChanged,
  request: {
    method: 'elicitation/create',
    params: { message: 'Which time?', requestedSchema: new RequestedSchemaBuilder().choose('time', times).build() },
  },
});
const confirm: PendingInput = {
  request: {
    method: 'elicitation/create',
    params: { message: 'Sure?', requestedSchema: new RequestedSchemaBuilder().boolean('ok').build() },
  },
};

interface Round {
  state?: RequestStatePayload;
  answers?: Record<string, Record<string, unknown>>;
  whenChanged?: ChangedQuestionPolicy;
  maxReasks?: number;
}

/** Runs `handler` once as a round of the flow; returns what the client would see. */
function run(
  handler: (s: ReplaySession) => unknown,
  o: Round = {},
): { done: unknown } | { asked: Record<string, InputRequest>; state: RequestStatePayload } {
  const session = new ReplaySession({
    binding,
    state: o.state,
    inputResponses: o.answers,
    clientCapabilities: { elicitation: {} },
    now: NOW,
    whenChanged: o.whenChanged,
    maxReasks: o.maxReasks,
  });
  try {
    return { done: handler(session) };
  } catch (e) {
    if (!isInputRequired(e)) throw e;
    return { asked: e.inputRequests, state: session.nextPayload(e) };
  }
}

function state(outcome: ReturnType<typeof run>): RequestStatePayload {
  if (!('state' in outcome)) throw new Error('expected a question');
  return outcome.state;
}

const pick = (s: ReplaySession, times: string[], policy?: ChangedQuestionPolicy) => {
  const [time] = s.ask([choice(times, policy)]);
  const [sure] = s.ask([confirm]);
  return `${String((time as ElicitResult).content?.['time'])} ${String((sure as ElicitResult).content?.['ok'])}`;
};

describe('ReplaySession: the flow id', () => {
  it('is made on the first round and carried unchanged by every later token', () => {
    const r1 = state(run((s) => pick(s, ['18:00'])));
    expect(r1.flowId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const r2 = state(
      run((s) => pick(s, ['18:00']), {
        state: r1,
        answers: { 'elicit-1': { action: 'accept', content: { time: '18:00' } } },
      }),
    );
    expect(r2.flowId).toBe(r1.flowId);
    const other = state(run((s) => pick(s, ['18:00'])));
    expect(other.flowId).not.toBe(r1.flowId);
  });

  it('is readable by the handler on every round, the first included', () => {
    const seen: string[] = [];
    const r1 = state(
      run((s) => {
        seen.push(s.flowId);
        return pick(s, ['18:00']);
      }),
    );
    expect(seen).toEqual([r1.flowId]);
  });
});

describe.each([
  ['the session default', 'reask' as const, undefined],
  ['the call site', undefined, 'reask' as const],
])('ReplaySession: a changed question, re-ask mode set by %s', (_label, sessionPolicy, sitePolicy) => {
  it('drops the answers from the changed position on and asks the new question', () => {
    const r1 = state(run((s) => pick(s, ['18:00', '19:00'], sitePolicy), { whenChanged: sessionPolicy }));
    const r2 = state(
      run((s) => pick(s, ['18:00', '19:00'], sitePolicy), {
        state: r1,
        answers: { 'elicit-1': { action: 'accept', content: { time: '18:00' } } },
        whenChanged: sessionPolicy,
      }),
    );
    expect(r2.ledger).toHaveLength(2);
    // Another guest took 18:00: the offered times changed before the confirmation came back.
    const r3 = run((s) => pick(s, ['19:00'], sitePolicy), {
      state: r2,
      answers: { 'elicit-2': { action: 'accept', content: { ok: true } } },
      whenChanged: sessionPolicy,
    });
    const asked = 'asked' in r3 ? r3.asked : {};
    expect(Object.keys(asked)).toEqual(['elicit-1']);
    expect(JSON.stringify(asked['elicit-1'])).toContain('19:00');
    const s3 = state(r3);
    expect(s3.ledger).toHaveLength(1);
    expect(s3.ledger[0]!.answer).toBeUndefined();
    expect(s3.reasks).toBe(1);
    expect(s3.flowId).toBe(r1.flowId);
    const r4 = state(
      run((s) => pick(s, ['19:00'], sitePolicy), {
        state: s3,
        answers: { 'elicit-1': { action: 'accept', content: { time: '19:00' } } },
        whenChanged: sessionPolicy,
      }),
    );
    const r5 = run((s) => pick(s, ['19:00'], sitePolicy), {
      state: r4,
      answers: { 'elicit-2': { action: 'accept', content: { ok: true } } },
      whenChanged: sessionPolicy,
    });
    expect(r5).toEqual({ done: '19:00 true' });
  });
});

describe('ReplaySession: changed questions are bounded, and strict mode fails', () => {
  it('fails naming the ordinal after maxReasks re-asks', () => {
    let times = ['a'];
    let current = state(run((s) => pick(s, times, 'reask'), { maxReasks: 2 }));
    for (let i = 0; i < 2; i++) {
      times = [`t${i}`];
      current = state(run((s) => pick(s, times, 'reask'), { state: current, maxReasks: 2 }));
    }
    times = ['again'];
    expect(() => run((s) => pick(s, times, 'reask'), { state: current, maxReasks: 2 })).toThrow(
      ElicitationLedgerMismatchException,
    );
    try {
      run((s) => pick(s, times, 'reask'), { state: current, maxReasks: 2 });
    } catch (e) {
      expect((e as ElicitationLedgerMismatchException).data).toEqual({
        reason: 'ledger_mismatch',
        ordinal: 1,
        key: 'elicit-1',
        reasked: 2,
      });
      expect((e as Error).message).toContain('#1');
    }
  });

  it('strict mode (the default) fails with ledger_mismatch on the first change', () => {
    const r1 = state(run((s) => pick(s, ['18:00'])));
    expect(() => run((s) => pick(s, ['19:00']), { state: r1 })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ reason: 'ledger_mismatch' }) }),
    );
  });

  it('a call-site fail wins over a re-asking session', () => {
    const r1 = state(run((s) => pick(s, ['18:00'], 'fail'), { whenChanged: 'reask' }));
    expect(() => run((s) => pick(s, ['19:00'], 'fail'), { state: r1, whenChanged: 'reask' })).toThrow(
      ElicitationLedgerMismatchException,
    );
  });
});
