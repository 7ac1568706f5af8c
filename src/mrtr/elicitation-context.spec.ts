import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpError } from '../protocol/mcp.error.js';
import type { ClientCapabilities, CreateMessageResult, ListRootsResult } from '../protocol/wire-types.js';
import { ElicitationContext } from './elicitation-context.js';
import { InputRequiredException } from './exceptions/input-required.exception.js';
import type { ElicitAnswer, UrlElicitAnswer } from './input-batch-builder.js';
import { ReplaySession } from './replay-session.js';
import { mcpCallScope } from './mcp-call-scope.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | undefined {
  return undefined;
}

const binding = { method: 'tools/call', target: 't', argsDigest: 'd', principal: null };
const FULL: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
const OUTSIDE = 'ElicitationContext used outside an MCP tools/call, prompts/get or resources/read handler';
const sampled: CreateMessageResult = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' };
const rooted: ListRootsResult = { roots: [{ uri: 'file:///w' }] };

function inCall<T>(
  fn: () => Promise<T>,
  inputResponses?: Record<string, Record<string, unknown>>,
  caps: ClientCapabilities = FULL,
): Promise<T> {
  const session = new ReplaySession({ binding, inputResponses, clientCapabilities: caps, now: 0 });
  const seal = () => {
    throw new Error('not sealed in this spec');
  };
  return mcpCallScope.run({ exchange: {} as McpExchange, session, seal }, fn);
}

describe('ElicitationContext', () => {
  const ctx = new ElicitationContext();

  describe('outside an MCP call', () => {
    it.each([
      ['elicit', () => ctx.elicit('Name?', (s) => s.string('name'))],
      ['elicitUrl', () => ctx.elicitUrl('Go', 'https://example.com')],
      ['sample', () => ctx.sample({ messages: [], maxTokens: 1 })],
      ['listRoots', () => ctx.listRoots()],
      ['batch', () => ctx.batch((b) => [b.listRoots()])],
      ['once', () => ctx.once(() => 1)],
    ])('%s rejects with a clear error', async (_label, call) => {
      await expect(call()).rejects.toThrow(OUTSIDE);
    });

    it('the capability checks throw the same error', () => {
      expect(() => ctx.canElicit()).toThrow(OUTSIDE);
      expect(() => ctx.canSample()).toThrow(OUTSIDE);
      expect(() => ctx.canListRoots()).toThrow(OUTSIDE);
    });

    it('does not run the schema callback', async () => {
      let ran = false;
      await expect(ctx.elicit('Name?', (s) => ((ran = true), s.string('name')))).rejects.toThrow(OUTSIDE);
      expect(ran).toBe(false);
    });
  });

  describe('inside a call', () => {
    it('elicit asks with the built schema, then resolves typed content', async () => {
      const ask = () => ctx.elicit('Who?', (s) => s.string('name').integer('age', { optional: true }));
      const signal = await inCall(ask).catch((e: unknown) => e);
      expect(signal).toBeInstanceOf(InputRequiredException);
      expect((signal as InputRequiredException).inputRequests).toEqual({
        'elicit-1': {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Who?',
            requestedSchema: {
              type: 'object',
              properties: { name: { type: 'string' }, age: { type: 'integer' } },
              required: ['name'],
            },
          },
        },
      });
      const answer = await inCall(ask, { 'elicit-1': { action: 'accept', content: { name: 'Ann', age: 7 } } });
      expectType<Equal<typeof answer, ElicitAnswer<{ name: string; age?: number }>>>();
      expect(answer).toEqual({ action: 'accept', content: { name: 'Ann', age: 7 } });
      if (answer.action === 'accept') expect(answer.content.name).toBe('Ann');
    });

    it('elicit resolves decline without content and honours an explicit key', async () => {
      const answer = await inCall(() => ctx.elicit('Ok?', (s) => s.boolean('ok'), { key: 'confirm' }), {
        confirm: { action: 'decline' },
      });
      expect(answer).toEqual({ action: 'decline' });
    });

    it('elicitUrl, sample and listRoots resolve their answers', async () => {
      await expect(
        inCall(() => ctx.elicitUrl('Sign in', 'https://example.com/a'), { 'elicit-1': { action: 'accept' } }),
      ).resolves.toEqual({ action: 'accept' });
      await expect(
        inCall(() => ctx.sample({ messages: [], maxTokens: 5 }), { 'sample-1': { ...sampled } }),
      ).resolves.toEqual(sampled);
      await expect(inCall(() => ctx.listRoots(), { 'roots-1': { ...rooted } })).resolves.toEqual(rooted);
    });

    it('elicitUrl refuses a relative URL', async () => {
      await expect(inCall(() => ctx.elicitUrl('Go', '/relative'))).rejects.toThrow(/absolute URL/);
    });

    it('batch asks everything in one round and returns typed answers by position', async () => {
      const plan = () =>
        ctx.batch((b) => [
          b.elicit('Size?', (s) => s.choose('size', ['s', 'l'])),
          b.sample({ messages: [], maxTokens: 5 }),
          b.listRoots(),
          b.elicitUrl('Pay', 'https://pay.example.com'),
        ]);
      const signal = (await inCall(plan).catch((e: unknown) => e)) as InputRequiredException;
      expect(Object.keys(signal.inputRequests)).toEqual(['elicit-1', 'sample-2', 'roots-3', 'elicit-4']);
      const answers = await inCall(plan, {
        'elicit-1': { action: 'accept', content: { size: 'l' } },
        'sample-2': { ...sampled },
        'roots-3': { ...rooted },
        'elicit-4': { action: 'cancel' },
      });
      expectType<
        Equal<
          typeof answers,
          [ElicitAnswer<{ size: 's' | 'l' }>, CreateMessageResult, ListRootsResult, UrlElicitAnswer]
        >
      >();
      expect(answers).toEqual([{ action: 'accept', content: { size: 'l' } }, sampled, rooted, { action: 'cancel' }]);
    });

    it('batch refuses a plan that is not builder calls', async () => {
      await expect(inCall(() => ctx.batch(() => [{ input: {}, read: () => 1 }] as never))).rejects.toThrow(
        /array of builder calls/,
      );
    });

    it('rejects with -32021 when the client cannot answer', async () => {
      const error = await inCall(() => ctx.elicit('Name?', (s) => s.string('name')), undefined, {}).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(McpErrorCode.MissingRequiredClientCapability);
      expect((error as McpError).data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
    });

    it('answers the capability questions from the current request', async () => {
      await inCall(
        async () => {
          expect([ctx.canElicit(), ctx.canElicit('url'), ctx.canSample(), ctx.canListRoots()]).toEqual([
            true,
            false,
            false,
            true,
          ]);
        },
        undefined,
        { elicitation: {}, roots: {} },
      );
    });

    it('keeps concurrent calls apart', async () => {
      const ask = () => ctx.elicit('Name?', (s) => s.string('name'));
      const [a, b] = await Promise.all([
        inCall(ask, { 'elicit-1': { action: 'accept', content: { name: 'A' } } }),
        inCall(ask, { 'elicit-1': { action: 'accept', content: { name: 'B' } } }),
      ]);
      expect([a.content?.name, b.content?.name]).toEqual(['A', 'B']);
    });
  });

  it("once computes through the call's replay session and returns the value's JSON copy", async () => {
    let runs = 0;
    const value = await inCall(async () => {
      const first = await ctx.once(() => ({ at: new Date(0), n: ++runs }));
      const second = await ctx.once(() => ++runs);
      return { first, second };
    });
    expect(value).toEqual({ first: { at: '1970-01-01T00:00:00.000Z', n: 1 }, second: 2 });
  });
});
