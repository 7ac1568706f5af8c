import { resolveMcpOptions } from '../mcp.options.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { AesGcmRequestStateCodec } from './aes-gcm-request-state-codec.js';
import { ElicitationContext } from './elicitation-context.js';
import { SystemClock } from '../core/mcp-clock.js';
import { type McpCallOutcome, type MrtrCall, MrtrEngine } from './mrtr-engine.js';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const clock = new SystemClock();
const engine = new MrtrEngine(
  new AesGcmRequestStateCodec({ secrets: [SECRET] }, clock, { warn: () => undefined }),
  clock,
  resolveMcpOptions({ name: 't', version: '1', mrtr: { secrets: [SECRET] } }).mrtr,
);
const elicitation = new ElicitationContext();
const exchange = {} as McpExchange;

function call(overrides: Partial<MrtrCall> = {}): MrtrCall {
  return {
    method: 'tools/call',
    target: 'confirm',
    arguments: { n: 1 },
    requestState: undefined,
    inputResponses: undefined,
    clientCapabilities: { elicitation: { form: {} } },
    principal: null,
    ...overrides,
  };
}

const asks = () => elicitation.elicit('Sure?', (s) => s.boolean('ok'));

describe('MrtrEngine.run', () => {
  it('resolves to the outcome of a synchronous handler', async () => {
    const outcome = engine.run(engine.begin(call()), exchange, () => 'done');
    await expect(outcome).resolves.toEqual({ kind: 'complete', value: 'done' });
  });

  it('returns a promise for an asynchronous handler', async () => {
    const outcome = engine.run(engine.begin(call()), exchange, async () => 'later');
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).resolves.toEqual({ kind: 'complete', value: 'later' });
  });

  it('rejects with what a synchronous or an asynchronous handler throws', async () => {
    const boom = new Error('boom');
    await expect(
      engine.run(engine.begin(call()), exchange, () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    await expect(
      engine.run(engine.begin(call()), exchange, async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });

  it('answers an input round both ways, and the retry completes the flow', async () => {
    // elicit() is async, so the handler that asks is too; a handler that rethrows synchronously is not.
    const round = (await engine.run(engine.begin(call()), exchange, asks)) as Extract<
      McpCallOutcome,
      { kind: 'input_required' }
    >;
    expect(round.kind).toBe('input_required');
    const syncRound = engine.run(engine.begin(call()), exchange, () => {
      void asks().catch(() => undefined);
      throw new Error('the handler failed after asking');
    });
    await expect(syncRound).resolves.toMatchObject({ kind: 'input_required' });

    const retry = call({
      requestState: round.round.requestState,
      inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
    });
    const done = await engine.run(engine.begin(retry), exchange, async () => {
      const answer = await asks();
      return answer.action === 'accept' && answer.content.ok;
    });
    expect(done).toEqual({ kind: 'complete', value: true });
  });
});
