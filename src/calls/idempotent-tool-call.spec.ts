import { AnonymousPrincipalSource } from '../core/mcp-principal-source.js';
import type { ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpError } from '../protocol/mcp.error.js';
import { idempotencyKeyOf, IdempotentToolCall } from './idempotent-tool-call.js';
import { InMemoryIdempotencyStore } from './in-memory-idempotency.store.js';

const exchangeOf = (params: Record<string, unknown>, signal = new AbortController().signal): McpExchange =>
  ({ params, signal, transport: { kind: 'http', clientAddress: '127.0.0.1' } }) as unknown as McpExchange;

const calls = () =>
  new IdempotentToolCall(new InMemoryIdempotencyStore(), new AnonymousPrincipalSource(), {
    path: '/mcp',
  } as ResolvedMcpServerOptions);

const PARAMS = { name: 'charge', arguments: { amount: 1 }, idempotencyKey: 'k' };

describe('IdempotentToolCall', () => {
  it('keeps a refusal that says "try again" (503, 429) out of the record: the retry runs', async () => {
    const idempotent = calls();
    let runs = 0;
    const unavailable = () => {
      runs++;
      return Promise.reject(new McpError(-32051, 'Unavailable', undefined, 503));
    };
    await expect(idempotent.run(exchangeOf(PARAMS), 'k', unavailable)).rejects.toMatchObject({ code: -32051 });
    await expect(idempotent.run(exchangeOf(PARAMS), 'k', async () => ({ content: [] }))).resolves.toEqual({
      content: [],
    });
    expect(runs).toBe(1);
  });

  it('keeps an internal error (-32603, the server failed) out of the record, and keeps a -32602 refusal', async () => {
    const idempotent = calls();
    await expect(
      idempotent.run(exchangeOf(PARAMS), 'k', () => Promise.reject(McpError.internal())),
    ).rejects.toMatchObject({ code: -32603 });
    await expect(idempotent.run(exchangeOf(PARAMS), 'k', async () => ({ content: [] }))).resolves.toEqual({
      content: [],
    });

    const other = calls();
    const refused = () => Promise.reject(McpError.invalidParams('amount too large'));
    await expect(other.run(exchangeOf(PARAMS), 'k', refused)).rejects.toMatchObject({ code: -32602 });
    await expect(other.run(exchangeOf(PARAMS), 'k', async () => ({ content: [] }))).rejects.toMatchObject({
      code: -32602,
      message: 'amount too large',
    });
  });

  it('does not keep the tool error of a call its client stopped: the retry runs', async () => {
    const idempotent = calls();
    const stopped = new AbortController();
    stopped.abort();
    await idempotent.run(exchangeOf(PARAMS, stopped.signal), 'k', async () => ({ isError: true, content: [] }));
    const again = await idempotent.run(exchangeOf(PARAMS), 'k', async () => ({
      content: [{ type: 'text', text: 'ok' }],
    }));
    expect(again).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('replays a kept answer as it was when answered, even if the handler changes its object later', async () => {
    const idempotent = calls();
    const answer = { content: [{ type: 'text', text: 'first' }] };
    await idempotent.run(exchangeOf(PARAMS), 'k', async () => answer);
    answer.content[0]!.text = 'changed';
    expect(await idempotent.run(exchangeOf(PARAMS), 'k', async () => ({}))).toEqual({
      content: [{ type: 'text', text: 'first' }],
    });
  });

  it('reads params.idempotencyKey: absent, a non-empty string, else -32602', () => {
    expect(idempotencyKeyOf({})).toBeUndefined();
    expect(idempotencyKeyOf({ idempotencyKey: 'abc' })).toBe('abc');
    for (const bad of ['', 7, null, {}]) {
      expect(() => idempotencyKeyOf({ idempotencyKey: bad })).toThrow(McpError);
    }
  });
});
