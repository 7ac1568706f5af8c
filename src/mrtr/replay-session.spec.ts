import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpError } from '../protocol/mcp.error.js';
import type { ClientCapabilities, ElicitResult, InputRequest, InputResponse } from '../protocol/wire-types.js';
import { RequestedSchemaBuilder } from '../schema/requested-schema-builder.js';
import { AesGcmRequestStateCodec } from './aes-gcm-request-state-codec.js';
import { ElicitationLedgerMismatchException } from './exceptions/elicitation-ledger-mismatch.exception.js';
import { InputRequiredException, isInputRequired } from './exceptions/input-required.exception.js';
import { McpClock } from '../core/mcp-clock.js';
import { type PendingInput, ReplaySession } from './replay-session.js';
import type { RequestBinding, RequestStatePayload } from './request-state-payload.js';

const NOW = 1_780_000_000_000;
const binding: RequestBinding = { method: 'tools/call', target: 'greet', argsDigest: 'digest', principal: 'alice' };
const FULL: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: { tools: {}, context: {} },
  roots: {},
};
const codec = new AesGcmRequestStateCodec(
  { secrets: ['replay-session-spec secret, long enough'] },
  new (class extends McpClock {
    now = () => NOW;
  })(),
);

const nameSchema = new RequestedSchemaBuilder().string('name').build();
const form = (message: string, key?: string): PendingInput => ({
  key,
  request: { method: 'elicitation/create', params: { message, requestedSchema: nameSchema } },
});
const sample: PendingInput = {
  request: {
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 50 },
  },
};
const roots: PendingInput = { request: { method: 'roots/list' } };
const accept = (name: string) => ({ action: 'accept', content: { name } });
const sampled = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm-1' };
const rooted = { roots: [{ uri: 'file:///work', name: 'Work' }] };

type Outcome<R> =
  | { done: R; session: ReplaySession }
  | { inputRequests: Readonly<Record<string, InputRequest>>; state: RequestStatePayload; session: ReplaySession };

interface RoundOptions {
  state?: RequestStatePayload;
  inputResponses?: Record<string, Record<string, unknown>>;
  caps?: ClientCapabilities;
  now?: number;
}

/** One request of a flow, as the dispatcher runs it; the state goes through the real codec. */
function round<R>(handler: (s: ReplaySession) => R, o: RoundOptions = {}): Outcome<R> {
  const session = new ReplaySession({
    binding,
    state: o.state,
    inputResponses: o.inputResponses,
    clientCapabilities: o.caps ?? FULL,
    now: o.now ?? NOW,
  });
  try {
    return { done: handler(session), session };
  } catch (e) {
    if (!isInputRequired(e)) throw e;
    return { inputRequests: e.inputRequests, state: codec.open(codec.seal(session.nextPayload(e))), session };
  }
}

function asked<R>(outcome: Outcome<R>): {
  inputRequests: Readonly<Record<string, InputRequest>>;
  state: RequestStatePayload;
} {
  if ('done' in outcome) throw new Error(`expected input_required, got ${JSON.stringify(outcome.done)}`);
  return outcome;
}

function done<R>(outcome: Outcome<R>): R {
  if (!('done' in outcome))
    throw new Error(`expected a result, got input_required ${Object.keys(outcome.inputRequests).join()}`);
  return outcome.done;
}

const one = (s: ReplaySession, input: PendingInput) => s.ask([input])[0]!;
const nameOf = (answer: InputResponse) => (answer as ElicitResult).content?.['name'];

describe('ReplaySession', () => {
  describe('one question', () => {
    let runs = 0;
    const handler = (s: ReplaySession) => {
      runs++;
      return `Hello ${String(nameOf(one(s, form('Your name?'))))}`;
    };

    it('asks elicit-1 in form mode, then completes on the retry (the handler ran twice)', () => {
      runs = 0;
      const first = asked(round(handler));
      expect(first.inputRequests).toEqual({
        'elicit-1': {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Your name?', requestedSchema: nameSchema },
        },
      });
      expect(first.state.ledger).toEqual([{ key: 'elicit-1', kind: 'elicitation', fingerprint: expect.any(String) }]);
      expect(done(round(handler, { state: first.state, inputResponses: { 'elicit-1': accept('Ann') } }))).toBe(
        'Hello Ann',
      );
      expect(runs).toBe(2);
    });

    it('re-asks the same key when the retry brings no answer', () => {
      const first = asked(round(handler));
      const second = asked(round(handler, { state: first.state }));
      expect(Object.keys(second.inputRequests)).toEqual(['elicit-1']);
      expect(second.state.ledger).toEqual(first.state.ledger);
    });

    it('completes a handler that asks nothing without touching the ledger', () => {
      expect(done(round(() => 42))).toBe(42);
    });
  });

  it('walks three questions through four rounds, carrying answers forward', () => {
    const handler = (s: ReplaySession) => [1, 2, 3].map((i) => nameOf(one(s, form(`Name ${i}?`))));
    const r1 = asked(round(handler));
    expect(Object.keys(r1.inputRequests)).toEqual(['elicit-1']);
    const r2 = asked(round(handler, { state: r1.state, inputResponses: { 'elicit-1': accept('A') } }));
    expect(Object.keys(r2.inputRequests)).toEqual(['elicit-2']);
    expect(r2.state.ledger.map((slot) => slot.answer)).toEqual([
      { action: 'accept', content: { name: 'A' } },
      undefined,
    ]);
    const r3 = asked(round(handler, { state: r2.state, inputResponses: { 'elicit-2': accept('B') } }));
    expect(Object.keys(r3.inputRequests)).toEqual(['elicit-3']);
    expect(done(round(handler, { state: r3.state, inputResponses: { 'elicit-3': accept('C') } }))).toEqual([
      'A',
      'B',
      'C',
    ]);
  });

  describe('batches', () => {
    const handler = (s: ReplaySession) => s.ask([form('Name?'), sample, roots]);

    it('asks every kind in one round with consecutive ordinals', () => {
      const r1 = asked(round(handler));
      expect(Object.keys(r1.inputRequests)).toEqual(['elicit-1', 'sample-2', 'roots-3']);
      expect(r1.inputRequests['roots-3']).toEqual({ method: 'roots/list', params: {} });
      expect(r1.inputRequests['sample-2']).toEqual(sample.request);
      expect(r1.state.ledger.map((slot) => slot.kind)).toEqual(['elicitation', 'sampling', 'roots']);
    });

    it('re-asks only what is still missing, then returns every answer in order', () => {
      const r1 = asked(round(handler));
      const r2 = asked(
        round(handler, { state: r1.state, inputResponses: { 'elicit-1': accept('Ann'), 'roots-3': rooted } }),
      );
      expect(Object.keys(r2.inputRequests)).toEqual(['sample-2']);
      expect(done(round(handler, { state: r2.state, inputResponses: { 'sample-2': sampled } }))).toEqual([
        { action: 'accept', content: { name: 'Ann' } },
        sampled,
        rooted,
      ]);
    });

    it('completes in one retry when all answers come back together', () => {
      const r1 = asked(round(handler));
      const answers = done(
        round(handler, {
          state: r1.state,
          inputResponses: { 'elicit-1': accept('Ann'), 'sample-2': sampled, 'roots-3': rooted },
        }),
      );
      expect(answers).toHaveLength(3);
    });

    it('gives explicit keys their place in the ordinal sequence', () => {
      const r1 = asked(round((s) => s.ask([form('Name?', 'user_name'), form('Other?')])));
      expect(Object.keys(r1.inputRequests)).toEqual(['user_name', 'elicit-2']);
      expect(r1.state.ledger.map((slot) => slot.key)).toEqual(['user_name', 'elicit-2']);
    });

    it('returns [] for an empty batch without using an ordinal', () => {
      const r1 = asked(round((s) => [s.ask([]), one(s, form('Name?'))]));
      expect(Object.keys(r1.inputRequests)).toEqual(['elicit-1']);
    });
  });

  describe('decline and cancel', () => {
    it.each(['decline', 'cancel'] as const)('hands %s to the handler, without content', (action) => {
      const handler = (s: ReplaySession) => one(s, form('Name?'));
      const r1 = asked(round(handler));
      expect(
        done(round(handler, { state: r1.state, inputResponses: { 'elicit-1': { action, content: { name: 'x' } } } })),
      ).toEqual({ action });
    });
  });

  describe('idempotency contract', () => {
    it('refuses a different question at an answered ordinal', () => {
      const r1 = asked(round((s) => one(s, form('Name?'))));
      const r2 = asked(
        round((s) => [one(s, form('Name?')), one(s, form('Age?'))], {
          state: r1.state,
          inputResponses: { 'elicit-1': accept('Ann') },
        }),
      );
      const fickle = () => round((s) => [one(s, form('Your NAME?')), one(s, form('Age?'))], { state: r2.state });
      expect(fickle).toThrow(ElicitationLedgerMismatchException);
      try {
        fickle();
      } catch (e) {
        expect((e as McpError).code).toBe(McpErrorCode.InvalidParams);
        expect((e as McpError).data).toEqual({ reason: 'ledger_mismatch', ordinal: 1, key: 'elicit-1' });
      }
    });

    it('refuses a different question at a pending ordinal', () => {
      const r1 = asked(round((s) => one(s, form('Name?'))));
      expect(() => round((s) => one(s, form('Name, now?')), { state: r1.state })).toThrow(
        ElicitationLedgerMismatchException,
      );
      expect(() =>
        round((s) => one(s, form('Name, now?')), { state: r1.state, inputResponses: { 'elicit-1': accept('Ann') } }),
      ).toThrow(ElicitationLedgerMismatchException);
    });

    it('refuses another kind or another key at a known ordinal', () => {
      const r1 = asked(round((s) => one(s, form('Name?'))));
      expect(() => round((s) => one(s, roots), { state: r1.state })).toThrow(ElicitationLedgerMismatchException);
      expect(() => round((s) => one(s, form('Name?', 'user_name')), { state: r1.state })).toThrow(
        ElicitationLedgerMismatchException,
      );
    });

    it('fingerprints canonically: the same question in another key order still matches', () => {
      const r1 = asked(round((s) => one(s, form('Name?'))));
      const reordered: PendingInput = {
        request: {
          method: 'elicitation/create',
          params: {
            requestedSchema: { required: ['name'], properties: { name: { type: 'string' } }, type: 'object' },
            message: 'Name?',
            mode: 'form',
          },
        },
      };
      expect(
        done(
          round((s) => nameOf(one(s, reordered)), { state: r1.state, inputResponses: { 'elicit-1': accept('Ann') } }),
        ),
      ).toBe('Ann');
    });

    it('refuses one key used twice in a call', () => {
      expect(() => round((s) => s.ask([form('A?', 'k'), form('B?', 'k')]))).toThrow(/"k" is used twice/);
      expect(() => round((s) => s.ask([form('A?', 'elicit-2'), form('B?')]))).toThrow(/"elicit-2" is used twice/);
    });
  });

  describe('inputResponses', () => {
    it('without requestState, matches answers to the keys the handler asks for', () => {
      expect(
        done(
          round((s) => nameOf(one(s, form('Name?', 'user_name'))), { inputResponses: { user_name: accept('Alice') } }),
        ),
      ).toBe('Alice');
      expect(
        done(
          round((s) => s.ask([form('A?'), roots]).length, {
            inputResponses: { 'elicit-1': accept('Ann'), 'roots-2': rooted },
          }),
        ),
      ).toBe(2);
    });

    it('without requestState, asks when only unknown keys came', () => {
      const r = asked(round((s) => one(s, form('Name?', 'user_name')), { inputResponses: { wrong_key: accept('x') } }));
      expect(Object.keys(r.inputRequests)).toEqual(['user_name']);
      expect(r.state.ledger).toHaveLength(1);
    });

    it('ignores unknown keys and reports them as unused', () => {
      const r1 = asked(round((s) => one(s, form('Name?'))));
      const r2 = round((s) => nameOf(one(s, form('Name?'))), {
        state: r1.state,
        inputResponses: { 'elicit-1': accept('Ann'), extra_one: { foo: 1 }, extra_two: {} },
      });
      expect(done(r2)).toBe('Ann');
      expect(r2.session.unusedResponseKeys()).toEqual(['extra_one', 'extra_two']);
    });

    it('with requestState, merges answers only into its pending slots', () => {
      const handler = (s: ReplaySession) => [nameOf(one(s, form('A?'))), nameOf(one(s, form('B?')))];
      const r1 = asked(round(handler));
      // elicit-2 was never asked: an answer for it is not taken, even though the handler gets there.
      const r2 = asked(
        round(handler, { state: r1.state, inputResponses: { 'elicit-1': accept('Ann'), 'elicit-2': accept('Bob') } }),
      );
      expect(Object.keys(r2.inputRequests)).toEqual(['elicit-2']);
      expect(r2.state.ledger[1]!.answer).toBeUndefined();
    });

    it('never overwrites an answer the requestState already holds', () => {
      const handler = (s: ReplaySession) => [nameOf(one(s, form('A?'))), nameOf(one(s, form('B?')))];
      const r1 = asked(round(handler));
      const r2 = asked(round(handler, { state: r1.state, inputResponses: { 'elicit-1': accept('Ann') } }));
      const r3 = round(handler, {
        state: r2.state,
        inputResponses: { 'elicit-1': accept('Mallory'), 'elicit-2': accept('Bob') },
      });
      expect(done(r3)).toEqual(['Ann', 'Bob']);
      expect(r3.session.unusedResponseKeys()).toEqual(['elicit-1']);
    });

    const schema = new RequestedSchemaBuilder()
      .string('email', { format: 'email' })
      .integer('age', { minimum: 18 })
      .build();
    const strict: PendingInput = {
      request: { method: 'elicitation/create', params: { message: 'Details?', requestedSchema: schema } },
    };

    it.each([
      ['a missing required field', { action: 'accept', content: { email: 'a@b.c' } }],
      ['a wrong type', { action: 'accept', content: { email: 'a@b.c', age: '30' } }],
      ['a value out of range', { action: 'accept', content: { email: 'a@b.c', age: 17 } }],
      ['a bad format', { action: 'accept', content: { email: 'nope', age: 30 } }],
      ['no content at all', { action: 'accept' }],
      ['an unknown action', { action: 'maybe', content: { email: 'a@b.c', age: 30 } }],
      ['non-object content', { action: 'decline', content: 'no' }],
      ['a sampling-shaped answer', sampled],
      ['a roots-shaped answer', rooted],
    ])('re-asks instead of handing over %s', (_label, answer) => {
      const r1 = asked(round((s) => one(s, strict)));
      const r2 = round((s) => one(s, strict), { state: r1.state, inputResponses: { 'elicit-1': answer } });
      expect(Object.keys(asked(r2).inputRequests)).toEqual(['elicit-1']);
      expect(asked(r2).state.ledger[0]!.answer).toBeUndefined();
      expect(r2.session.unusedResponseKeys()).toEqual(['elicit-1']);
    });

    it('hands over accepted content without the fields the schema does not know', () => {
      const r1 = asked(round((s) => one(s, strict)));
      const answer = { action: 'accept', content: { email: 'a@b.c', age: 30, admin: true } };
      expect(done(round((s) => one(s, strict), { state: r1.state, inputResponses: { 'elicit-1': answer } }))).toEqual({
        action: 'accept',
        content: { email: 'a@b.c', age: 30 },
      });
    });

    it('re-asks when a custom validate refuses the answer', () => {
      const picky: PendingInput = { ...form('Name?'), validate: (a) => nameOf(a) !== 'root' };
      const r1 = asked(round((s) => one(s, picky)));
      expect(
        Object.keys(
          asked(round((s) => one(s, picky), { state: r1.state, inputResponses: { 'elicit-1': accept('root') } }))
            .inputRequests,
        ),
      ).toEqual(['elicit-1']);
      expect(
        nameOf(done(round((s) => one(s, picky), { state: r1.state, inputResponses: { 'elicit-1': accept('ann') } }))),
      ).toBe('ann');
    });

    it.each([
      ['sampling without model', sample, { role: 'assistant', content: { type: 'text', text: 'x' } }],
      ['sampling with a bad role', sample, { ...sampled, role: 'system' }],
      ['sampling with untyped content', sample, { ...sampled, content: { text: 'x' } }],
      ['sampling with an elicitation answer', sample, accept('x')],
      ['roots that are not a list', roots, { roots: { uri: 'file:///' } }],
      ['roots without uri', roots, { roots: [{ name: 'x' }] }],
    ])('re-asks %s', (_label, input, answer) => {
      const r1 = asked(round((s) => one(s, input)));
      const key = Object.keys(r1.inputRequests)[0]!;
      expect(
        Object.keys(
          asked(round((s) => one(s, input), { state: r1.state, inputResponses: { [key]: answer } })).inputRequests,
        ),
      ).toEqual([key]);
    });

    it('accepts URL-mode answers as their action only', () => {
      const url: PendingInput = {
        request: {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Sign in', url: 'https://example.com/auth' },
        },
      };
      const r1 = asked(round((s) => one(s, url)));
      expect(
        done(
          round((s) => one(s, url), {
            state: r1.state,
            inputResponses: { 'elicit-1': { action: 'accept', content: { x: 1 } } },
          }),
        ),
      ).toEqual({ action: 'accept' });
    });
  });

  describe('capability gating', () => {
    function refusal(input: PendingInput | PendingInput[], caps: ClientCapabilities): unknown {
      try {
        round((s) => s.ask(Array.isArray(input) ? input : [input]), { caps });
      } catch (e) {
        expect(e).toBeInstanceOf(McpError);
        expect((e as McpError).code).toBe(McpErrorCode.MissingRequiredClientCapability);
        expect((e as McpError).httpStatus).toBe(400);
        return ((e as McpError).data as { requiredCapabilities: unknown }).requiredCapabilities;
      }
      throw new Error('not refused');
    }
    const url: PendingInput = {
      request: {
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Pay', url: 'https://pay.example.com' },
      },
    };

    it.each<[string, PendingInput | PendingInput[], ClientCapabilities, ClientCapabilities]>([
      ['form elicitation without elicitation', form('Name?'), {}, { elicitation: { form: {} } }],
      [
        'form elicitation from a url-only client',
        form('Name?'),
        { elicitation: { url: {} } },
        { elicitation: { form: {} } },
      ],
      ['url elicitation from a form-only client', url, { elicitation: {} }, { elicitation: { url: {} } }],
      ['sampling', sample, { elicitation: {} }, { sampling: {} }],
      [
        'sampling with tools',
        { request: { ...sample.request, params: { ...(sample.request.params as object), tools: [] } } as InputRequest },
        { sampling: {} },
        { sampling: { tools: {} } },
      ],
      [
        'sampling with context',
        {
          request: {
            ...sample.request,
            params: { ...(sample.request.params as object), includeContext: 'thisServer' },
          } as InputRequest,
        },
        {},
        { sampling: { context: {} } },
      ],
      ['roots', roots, { sampling: {} }, { roots: {} }],
      [
        'a mixed batch',
        [url, sample, roots],
        { elicitation: { form: {} } },
        { elicitation: { url: {} }, sampling: {}, roots: {} },
      ],
    ])('refuses %s with -32021 naming the minimal capability', (_label, input, caps, required) => {
      expect(refusal(input, caps)).toEqual(required);
    });

    it('allows what was declared (empty elicitation means form)', () => {
      expect(
        Object.keys(asked(round((s) => one(s, form('Name?')), { caps: { elicitation: {} } })).inputRequests),
      ).toEqual(['elicit-1']);
      const inc: PendingInput = {
        request: {
          ...sample.request,
          params: { ...(sample.request.params as object), includeContext: 'none' },
        } as InputRequest,
      };
      expect(Object.keys(asked(round((s) => one(s, inc), { caps: { sampling: {} } })).inputRequests)).toEqual([
        'sample-1',
      ]);
    });

    it('does not gate a question whose answer is already there', () => {
      expect(
        nameOf(done(round((s) => one(s, form('Name?')), { caps: {}, inputResponses: { 'elicit-1': accept('Ann') } }))),
      ).toBe('Ann');
    });

    it('answers the capability questions for the handler', () => {
      const s = new ReplaySession({ binding, clientCapabilities: { elicitation: {}, sampling: {} }, now: NOW });
      expect([s.canElicit(), s.canElicit('form'), s.canElicit('url'), s.canSample(), s.canListRoots()]).toEqual([
        true,
        true,
        false,
        true,
        false,
      ]);
      expect(s.canSample({ messages: [], maxTokens: 1, tools: [] })).toBe(false);
    });
  });

  describe('the next requestState', () => {
    it('is issued now, keeps the flow start, the binding and a copy of the ledger', () => {
      const r1 = asked(round((s) => one(s, form('A?')), { now: NOW - 5000 }));
      expect(r1.state).toMatchObject({ ...binding, issuedAt: NOW - 5000, startedAt: NOW - 5000 });
      const session = new ReplaySession({
        binding,
        state: r1.state,
        inputResponses: { 'elicit-1': accept('Ann') },
        clientCapabilities: FULL,
        now: NOW,
      });
      let signal: InputRequiredException | undefined;
      try {
        session.ask([form('A?')]);
        session.ask([form('B?')]);
      } catch (e) {
        signal = e as InputRequiredException;
      }
      const next = session.nextPayload(signal!);
      expect(next).toMatchObject({ ...binding, issuedAt: NOW, startedAt: NOW - 5000 });
      expect(next.ledger.map((slot) => [slot.key, slot.answer !== undefined])).toEqual([
        ['elicit-1', true],
        ['elicit-2', false],
      ]);
      next.ledger[0]!.key = 'changed';
      expect(signal!.ledger[0]!.key).toBe('elicit-1');
      expect(session.lastInputRequired).toBe(signal);
    });

    it('reads the binding lazily, when it is sealed', () => {
      let reads = 0;
      const lazy = {
        ...binding,
        get argsDigest() {
          reads++;
          return 'lazy';
        },
      } as RequestBinding;
      const session = new ReplaySession({ binding: lazy, clientCapabilities: FULL, now: NOW });
      expect(() => session.ask([form('A?')])).toThrow(InputRequiredException);
      expect(reads).toBe(0);
      expect(session.nextPayload(session.lastInputRequired!).argsDigest).toBe('lazy');
    });
  });

  it('hands out copies: a handler mutating an answer does not change the ledger', () => {
    const r1 = asked(round((s) => one(s, form('A?'))));
    const session = new ReplaySession({
      binding,
      state: r1.state,
      inputResponses: { 'elicit-1': accept('Ann') },
      clientCapabilities: FULL,
      now: NOW,
    });
    (one(session, form('A?')) as ElicitResult).content!['name'] = 'Eve';
    expect(
      nameOf(
        one(
          new ReplaySession({
            binding,
            state: r1.state,
            inputResponses: { 'elicit-1': accept('Ann') },
            clientCapabilities: FULL,
            now: NOW,
          }),
          form('A?'),
        ),
      ),
    ).toBe('Ann');
    try {
      session.ask([form('B?')]);
    } catch (e) {
      expect(nameOf((e as InputRequiredException).ledger[0]!.answer!)).toBe('Ann');
    }
  });

  it('refuses to ask after the call was closed (an un-awaited elicit)', () => {
    const session = new ReplaySession({ binding, clientCapabilities: FULL, now: NOW });
    session.close();
    expect(() => session.ask([form('A?')])).toThrow(/after its MCP call finished/);
  });
});
