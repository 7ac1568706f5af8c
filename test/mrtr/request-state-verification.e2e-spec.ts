import type { RawResponse } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { ManualClock, startMrtrApp } from './mrtr-app.js';
import {
  callTool,
  expectComplete,
  expectInputRequired,
  expectRejectedState,
  flipByte,
  getPrompt,
  readResource,
  toolText,
  type InputRequiredRound,
} from './mrtr-wire.js';
import { MrtrPrompts, MrtrResources, MrtrTools, SECRET_A, SECRET_B, mrtrModule } from './mrtr.fixtures.js';
import { AppHeaderPrincipalSource } from './principal.fixtures.js';

const TTL_MS = 60_000;
const MAX_FLOW_MS = 150_000;
const NAME = { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } };

/**
 * Every way a retry can be refused, over real HTTP with hand-built requests: each refusal is
 * -32602 with the fixed opaque message, HTTP 400 and a `data.reason`, and no handler runs.
 */
describe.each(ADAPTERS)('requestState verification on retry, on %s', (adapter) => {
  const clock = new ManualClock();
  let server: RunningApp;
  let foreign: RunningApp;
  let url: string;
  let tools: MrtrTools;
  let prompts: MrtrPrompts;
  let resources: MrtrResources;

  const counts = () => ({
    tools: tools.counter.snapshot(),
    prompts: prompts.counter.snapshot(),
    resources: resources.counter.snapshot(),
  });
  /** Runs the action and asserts no handler of the app ran meanwhile. */
  async function withoutHandlers(action: () => Promise<RawResponse>): Promise<RawResponse> {
    const before = counts();
    const response = await action();
    expect(counts()).toEqual(before);
    return response;
  }
  const startOneQuestion = async (headers?: Record<string, string>): Promise<InputRequiredRound> =>
    expectInputRequired(await callTool(url, 'one_question', {}, { headers }));

  beforeAll(async () => {
    const module = mrtrModule({
      mcp: {
        principalSource: AppHeaderPrincipalSource,
        mrtr: { secrets: [SECRET_A], ttlMs: TTL_MS, maxFlowMs: MAX_FLOW_MS },
      },
    });
    server = await startMrtrApp(module, adapter, { clock });
    foreign = await startMrtrApp(mrtrModule({ mcp: { mrtr: { secrets: [SECRET_B] } } }), adapter);
    url = server.url;
    tools = server.app.get(MrtrTools);
    prompts = server.app.get(MrtrPrompts);
    resources = server.app.get(MrtrResources);
  });
  afterAll(async () => {
    await foreign.close();
    await server.close();
  });

  it('accepts the genuine retry (the baseline every rejection below departs from)', async () => {
    const round = await startOneQuestion();
    const before = tools.counter.of('one_question');
    const done = expectComplete(
      await callTool(url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME }),
    );
    expect(toolText(done)).toBe('Hello, Ada!');
    expect(tools.counter.of('one_question') - before).toBe(1);
  });

  describe('tokens that fail decoding or authentication', () => {
    it('a tampered token (one ciphertext byte flipped) → authentication_failed', async () => {
      const round = await startOneQuestion();
      const tampered = flipByte(round.requestState, 30);
      expectRejectedState(
        await withoutHandlers(() =>
          callTool(url, 'one_question', {}, { requestState: tampered, inputResponses: NAME }),
        ),
        'authentication_failed',
      );
    });

    it('a tampered token on prompts/get and on resources/read → authentication_failed', async () => {
      const prompt = expectInputRequired(await getPrompt(url, 'story'));
      expectRejectedState(
        await withoutHandlers(() => getPrompt(url, 'story', {}, { requestState: flipByte(prompt.requestState, 40) })),
        'authentication_failed',
      );
      const read = expectInputRequired(await readResource(url, 'mrtr://vault'));
      expectRejectedState(
        await withoutHandlers(() =>
          readResource(url, 'mrtr://vault', { requestState: flipByte(read.requestState, 40) }),
        ),
        'authentication_failed',
      );
    });

    it('a token is opaque: neither it nor its decoded bytes show the tool, the caller or a sealed answer', async () => {
      const headers = { 'x-user': 'opaque-user' };
      const r1 = expectInputRequired(await callTool(url, 'three_questions', {}, { headers }));
      const r2 = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          {
            headers,
            requestState: r1.requestState,
            inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Zanzibar' } } },
          },
        ),
      );
      const decoded = Buffer.from(r2.requestState, 'base64url').toString('latin1');
      for (const secret of ['three_questions', 'opaque-user', 'Zanzibar', 'tools/call']) {
        expect(r2.requestState).not.toContain(secret);
        expect(decoded).not.toContain(secret);
      }
    });

    it('a token sealed under a key this server does not hold (another deployment) → unknown_key', async () => {
      const theirs = expectInputRequired(await callTool(foreign.url, 'one_question'));
      expectRejectedState(
        await withoutHandlers(() =>
          callTool(url, 'one_question', {}, { requestState: theirs.requestState, inputResponses: NAME }),
        ),
        'unknown_key',
      );
    });

    it.each([
      ['not base64url', 'not a token!'],
      ['too short', 'AQID'],
      ['a number', 42],
      ['an object', { state: 'x' }],
    ])('a requestState that is %s → malformed', async (_label, requestState) => {
      expectRejectedState(
        await withoutHandlers(() => callTool(url, 'one_question', {}, { requestState, inputResponses: NAME })),
        'malformed',
      );
    });

    it('another base64url spelling of the same bytes (unused trailing bits set) → malformed', async () => {
      // Only tokens of 3k+1 or 3k+2 bytes have unused bits in their last character: the principal's length picks one.
      let round: InputRequiredRound | undefined;
      let headers: Record<string, string> = {};
      for (const user of ['a', 'ab', 'abc']) {
        headers = { 'x-user': user };
        round = await startOneQuestion(headers);
        if (Buffer.from(round.requestState, 'base64url').length % 3 !== 0) break;
      }
      const token = round!.requestState;
      const bytes = Buffer.from(token, 'base64url');
      expect(bytes.length % 3).not.toBe(0);
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const sameBytes = [...alphabet]
        .map((ch) => token.slice(0, -1) + ch)
        .filter((t) => t !== token && Buffer.from(t, 'base64url').equals(bytes));
      expect(sameBytes).toHaveLength(bytes.length % 3 === 1 ? 15 : 3);
      for (const variant of sameBytes) {
        expectRejectedState(
          await withoutHandlers(() =>
            callTool(url, 'one_question', {}, { requestState: variant, inputResponses: NAME, headers }),
          ),
          'malformed',
        );
      }
      expectComplete(await callTool(url, 'one_question', {}, { requestState: token, inputResponses: NAME, headers }));
    });

    it('an oversized token is refused before decoding (> 65536 characters) → oversized', async () => {
      const response = await withoutHandlers(() =>
        callTool(url, 'one_question', {}, { requestState: 'A'.repeat(65_537), inputResponses: NAME }),
      );
      expectRejectedState(response, 'oversized');
      // At the bound it is read (and refused for what it is, not for its size).
      const atBound = await withoutHandlers(() =>
        callTool(url, 'one_question', {}, { requestState: 'A'.repeat(65_536), inputResponses: NAME }),
      );
      expectRejectedState(atBound, 'unsupported_version');
    });
  });

  describe('expiry (time from an injected McpClock)', () => {
    it('a round answered after the per-round TTL → expired; exactly at the TTL it is still accepted', async () => {
      const late = await startOneQuestion();
      clock.advance(TTL_MS + 1);
      expectRejectedState(
        await withoutHandlers(() =>
          callTool(url, 'one_question', {}, { requestState: late.requestState, inputResponses: NAME }),
        ),
        'expired',
      );

      const onTime = await startOneQuestion();
      clock.advance(TTL_MS);
      expect(
        toolText(
          expectComplete(
            await callTool(url, 'one_question', {}, { requestState: onTime.requestState, inputResponses: NAME }),
          ),
        ),
      ).toBe('Hello, Ada!');
    });

    it('a flow whose every round is on time but which outlives the flow lifetime → flow_expired', async () => {
      const r1 = expectInputRequired(await callTool(url, 'three_questions'));
      clock.advance(50_000);
      const r2 = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          {
            requestState: r1.requestState,
            inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
          },
        ),
      );
      expect(Object.keys(r2.inputRequests)).toEqual(['elicit-2']);
      clock.advance(50_000);
      const r3 = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          { requestState: r2.requestState, inputResponses: { 'elicit-2': { action: 'accept', content: { age: 36 } } } },
        ),
      );
      expect(Object.keys(r3.inputRequests)).toEqual(['elicit-3']);
      clock.advance(55_000); // 55 s after r3 (< TTL), 155 s after the flow started (> 150 s)
      expectRejectedState(
        await withoutHandlers(() =>
          callTool(
            url,
            'three_questions',
            {},
            {
              requestState: r3.requestState,
              inputResponses: { 'elicit-3': { action: 'accept', content: { color: 'red' } } },
            },
          ),
        ),
        'flow_expired',
      );
    });
  });

  describe('tokens presented on another call than the one they were issued for', () => {
    it('a tools/call token on prompts/get or resources/read → method_mismatch', async () => {
      const round = await startOneQuestion();
      expectRejectedState(
        await withoutHandlers(() => getPrompt(url, 'story', {}, { requestState: round.requestState })),
        'method_mismatch',
      );
      expectRejectedState(
        await withoutHandlers(() => readResource(url, 'mrtr://vault', { requestState: round.requestState })),
        'method_mismatch',
      );
    });

    it('a prompts/get token on tools/call → method_mismatch', async () => {
      const round = expectInputRequired(await getPrompt(url, 'story'));
      expectRejectedState(
        await withoutHandlers(() => callTool(url, 'one_question', {}, { requestState: round.requestState })),
        'method_mismatch',
      );
    });

    it('a token of one tool on another tool → target_mismatch', async () => {
      const round = await startOneQuestion();
      expectRejectedState(
        await withoutHandlers(() =>
          callTool(
            url,
            'careful_catch',
            {},
            {
              requestState: round.requestState,
              inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
            },
          ),
        ),
        'target_mismatch',
      );
    });

    it('a token of one resource URI on another URI of the same template → target_mismatch', async () => {
      const round = expectInputRequired(await readResource(url, 'mrtr://notes/1'));
      const answer = { 'elicit-1': { action: 'accept', content: { show: true } } };
      expectRejectedState(
        await withoutHandlers(() =>
          readResource(url, 'mrtr://notes/2', { requestState: round.requestState, inputResponses: answer }),
        ),
        'target_mismatch',
      );
      const done = expectComplete(
        await readResource(url, 'mrtr://notes/1', { requestState: round.requestState, inputResponses: answer }),
      );
      expect(done.contents[0].text).toBe('note 1: buy milk');
    });

    it('changed arguments → arguments_mismatch; the same arguments in another key order are the same call', async () => {
      const order = { item: 'tea', qty: 2 };
      const round = expectInputRequired(await callTool(url, 'place_order', order));
      const yes = { 'elicit-1': { action: 'accept', content: { confirm: true } } };
      for (const changed of [
        { item: 'tea', qty: 3 },
        { item: 'coffee', qty: 2 },
        { ...order, note: 'extra' },
        { item: 'tea' },
      ]) {
        expectRejectedState(
          await withoutHandlers(() =>
            callTool(url, 'place_order', changed, { requestState: round.requestState, inputResponses: yes }),
          ),
          'arguments_mismatch',
        );
      }
      const done = expectComplete(
        await callTool(
          url,
          'place_order',
          { qty: 2, item: 'tea' },
          { requestState: round.requestState, inputResponses: yes },
        ),
      );
      expect(toolText(done)).toBe('ordered 2 x tea');
    });

    it('another principal → principal_mismatch, in every direction; the same principal completes', async () => {
      const alice = { 'x-user': 'alice' };
      const round = await startOneQuestion(alice);
      for (const headers of [{ 'x-user': 'bob' }, {}] as Array<Record<string, string>>) {
        expectRejectedState(
          await withoutHandlers(() =>
            callTool(url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME, headers }),
          ),
          'principal_mismatch',
        );
      }
      const anonymous = await startOneQuestion();
      expectRejectedState(
        await withoutHandlers(() =>
          callTool(
            url,
            'one_question',
            {},
            { requestState: anonymous.requestState, inputResponses: NAME, headers: alice },
          ),
        ),
        'principal_mismatch',
      );
      expectComplete(
        await callTool(
          url,
          'one_question',
          {},
          { requestState: round.requestState, inputResponses: NAME, headers: alice },
        ),
      );
    });
  });

  describe('inputResponses', () => {
    it.each([
      ['an array', [{ action: 'accept' }]],
      ['a string', 'accept'],
      ['a number', 1],
      ['an object with a string value', { 'elicit-1': 'accept' }],
      ['an object with a null value', { 'elicit-1': null }],
      ['an object with an array value', { 'elicit-1': [{ action: 'accept' }] }],
    ])('%s → -32602 malformed_input_responses, the handler does not run', async (_label, inputResponses) => {
      const round = await startOneQuestion();
      for (const requestState of [round.requestState, undefined]) {
        const response = await withoutHandlers(() =>
          callTool(url, 'one_question', {}, { requestState, inputResponses }),
        );
        // Pinned: -32602 keeps McpError's default status for the family (200), unlike refused tokens (400).
        expect(response.status).toBe(200);
        expect(response.json.error).toEqual({
          code: -32602,
          message: 'inputResponses must be an object whose values are objects',
          data: { reason: 'malformed_input_responses' },
        });
      }
    });

    it('unknown keys are ignored: alongside the answer the call completes; alone, the question is asked again', async () => {
      const round = await startOneQuestion();
      const extra = {
        surprise: { action: 'accept', content: { name: 'Mallory' } },
        'elicit-99': { action: 'decline' },
      };
      expect(
        toolText(
          expectComplete(
            await callTool(
              url,
              'one_question',
              {},
              { requestState: round.requestState, inputResponses: { ...NAME, ...extra } },
            ),
          ),
        ),
      ).toBe('Hello, Ada!');
      const again = expectInputRequired(
        await callTool(url, 'one_question', {}, { requestState: round.requestState, inputResponses: extra }),
      );
      expect(Object.keys(again.inputRequests)).toEqual(['elicit-1']);
    });

    it('answers without requestState are matched to the keys the handler asks for', async () => {
      const before = tools.counter.of('three_questions');
      const all = {
        'elicit-1': { action: 'accept', content: { name: 'Ada' } },
        'elicit-2': { action: 'accept', content: { age: 36 } },
        'elicit-3': { action: 'decline' },
      };
      const done = expectComplete(await callTool(url, 'three_questions', {}, { inputResponses: all }));
      expect(done.structuredContent).toEqual({ name: 'Ada', age: 36, color: '(decline)' });
      expect(tools.counter.of('three_questions') - before).toBe(1);

      // A partial set: the first missing question is asked, the token carries what was matched.
      const partial = expectInputRequired(
        await callTool(url, 'three_questions', {}, { inputResponses: { 'elicit-1': all['elicit-1'] } }),
      );
      expect(Object.keys(partial.inputRequests)).toEqual(['elicit-2']);
      const next = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          { requestState: partial.requestState, inputResponses: { 'elicit-2': all['elicit-2'] } },
        ),
      );
      expect(Object.keys(next.inputRequests)).toEqual(['elicit-3']);
    });

    it('with a requestState, answers land only on questions that were asked: an answer ahead of its question is ignored', async () => {
      const r1 = expectInputRequired(await callTool(url, 'three_questions'));
      const r2 = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          {
            requestState: r1.requestState,
            inputResponses: {
              'elicit-1': { action: 'accept', content: { name: 'Ada' } },
              'elicit-2': { action: 'accept', content: { age: 36 } },
            },
          },
        ),
      );
      expect(Object.keys(r2.inputRequests)).toEqual(['elicit-2']);
    });

    it('an answer already sealed in the token cannot be replaced on a later retry (the sealed one wins)', async () => {
      const r1 = expectInputRequired(await callTool(url, 'three_questions'));
      const r2 = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          {
            requestState: r1.requestState,
            inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
          },
        ),
      );
      const r3 = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          {
            requestState: r2.requestState,
            inputResponses: {
              'elicit-1': { action: 'accept', content: { name: 'Mallory' } },
              'elicit-2': { action: 'accept', content: { age: 36 } },
            },
          },
        ),
      );
      const done = expectComplete(
        await callTool(
          url,
          'three_questions',
          {},
          {
            requestState: r3.requestState,
            inputResponses: { 'elicit-3': { action: 'accept', content: { color: 'green' } } },
          },
        ),
      );
      expect(done.structuredContent).toEqual({ name: 'Ada', age: 36, color: 'green' });
    });

    it.each([
      ['a wrong type', { action: 'accept', content: { age: 'forty' } }],
      ['a value out of range', { action: 'accept', content: { age: 400 } }],
      ['a missing required field', { action: 'accept', content: {} }],
      ['an unknown action', { action: 'maybe' }],
      ['a sampling-shaped answer', { role: 'assistant', content: { type: 'text', text: '36' }, model: 'm' }],
    ])('an answer with %s is not handed to the handler: the question is asked again', async (_label, answer) => {
      const r1 = expectInputRequired(await callTool(url, 'three_questions'));
      const r2 = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          {
            requestState: r1.requestState,
            inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
          },
        ),
      );
      const again = expectInputRequired(
        await callTool(
          url,
          'three_questions',
          {},
          { requestState: r2.requestState, inputResponses: { 'elicit-2': answer } },
        ),
      );
      expect(Object.keys(again.inputRequests)).toEqual(['elicit-2']);
      expect(again.inputRequests['elicit-2']!.params.message).toBe('Your age?');
    });
  });

  describe('the replay contract', () => {
    it('a handler asking a different question on replay → -32602 ledger_mismatch naming the idempotency contract, HTTP 400', async () => {
      const round = expectInputRequired(await callTool(url, 'fickle'));
      const before = tools.counter.of('fickle');
      const response = await callTool(
        url,
        'fickle',
        {},
        {
          requestState: round.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { go: true } } },
        },
      );
      expect(response.status).toBe(400);
      expect(response.json.error).toMatchObject({
        code: -32602,
        data: { reason: 'ledger_mismatch', ordinal: 1, key: 'elicit-1' },
      });
      expect(response.json.error.message).toMatch(/idempotency contract/);
      // Detected while replaying, so the handler did start once more.
      expect(tools.counter.of('fickle') - before).toBe(1);
    });

    it('a token is not single-use: replaying the same retry, in turn or concurrently, completes every time (handlers must be idempotent)', async () => {
      const round = await startOneQuestion();
      const before = tools.counter.of('one_question');
      for (let i = 0; i < 2; i++) {
        expectComplete(
          await callTool(url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME }),
        );
      }
      // Concurrent replays of one token run independently too.
      const concurrent = await Promise.all(
        Array.from({ length: 8 }, () =>
          callTool(url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME }),
        ),
      );
      expect(concurrent.map((r) => toolText(expectComplete(r)))).toEqual(Array(8).fill('Hello, Ada!'));
      expect(tools.counter.of('one_question') - before).toBe(10);
    });

    it('a retry without the answer asks the same question again with a fresh token', async () => {
      const round = await startOneQuestion();
      const again = expectInputRequired(await callTool(url, 'one_question', {}, { requestState: round.requestState }));
      expect(again.inputRequests).toEqual(round.inputRequests);
      expect(again.requestState).not.toBe(round.requestState);
      expectComplete(
        await callTool(url, 'one_question', {}, { requestState: again.requestState, inputResponses: NAME }),
      );
    });

    // Fails while src/methods/resources.methods.ts uses stamp.complete() for retries (drops both fields).
    it('a retried resources/read is complete and not cacheable: ttlMs 0, cacheScope private (both required by the schema)', async () => {
      const round = expectInputRequired(await readResource(url, 'mrtr://vault'));
      const done = expectComplete(
        await readResource(url, 'mrtr://vault', {
          requestState: round.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { fruit: 'fig' } } },
        }),
      );
      expect(done.contents).toEqual([{ uri: 'mrtr://vault', mimeType: 'text/plain', text: 'vault opened with fig' }]);
      expect({ ttlMs: done.ttlMs, cacheScope: done.cacheScope }).toEqual({ ttlMs: 0, cacheScope: 'private' });
    });
  });

  describe('client capabilities', () => {
    it.each([
      ['form elicitation', 'one_question', {}, { elicitation: { form: {} } }],
      ['URL elicitation', 'sign_in', { elicitation: {} }, { elicitation: { url: {} } }],
      ['roots (in a batch)', 'batched', { elicitation: {} }, { roots: {} }],
    ])(
      'asking for %s without the capability → -32021 with data.requiredCapabilities, HTTP 400',
      async (_label, tool, capabilities, required) => {
        const before = tools.counter.of(tool);
        const response = await callTool(url, tool, {}, { capabilities });
        expect(response.status).toBe(400);
        expect(response.json.error).toMatchObject({ code: -32021, data: { requiredCapabilities: required } });
        expect(response.json.result).toBeUndefined();
        // The handler started and reached the question; nothing went out.
        expect(tools.counter.of(tool) - before).toBe(1);
      },
    );

    it('a client declaring URL elicitation is sent to the URL', async () => {
      const round = expectInputRequired(
        await callTool(url, 'sign_in', {}, { capabilities: { elicitation: { url: {} } } }),
      );
      expect(round.inputRequests['elicit-1']).toEqual({
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Please sign in', url: 'https://login.example.com/start' },
      });
    });
  });
});
