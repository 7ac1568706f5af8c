import { mcpCallScope, type McpCallScope } from '../mrtr/mcp-call-scope.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpClientLogger } from './mcp-client-logger.js';

/** A call whose client is behind for good: every notification hands back a drain that never comes. */
function behindForGood(signal: AbortSignal) {
  const drain = new Promise<void>(() => undefined);
  const exchange = {
    logLevel: 'debug',
    signal,
    notify: () => drain,
  } as unknown as McpExchange;
  return { exchange, drain };
}

const inCall = <T>(exchange: McpExchange, run: () => T): T =>
  mcpCallScope.run({ exchange } as unknown as McpCallScope, run);

const state = (promise: Promise<void>) =>
  Promise.race([promise.then(() => 'settled'), new Promise((resolve) => setTimeout(() => resolve('pending'), 50))]);

describe('McpClientLogger', () => {
  const logger = new McpClientLogger();

  it('a wait for a client that is behind settles when the call is stopped (cancelled, timed out, shut down)', async () => {
    const abort = new AbortController();
    const { exchange } = behindForGood(abort.signal);
    const waits = inCall(exchange, () => [logger.info('one'), logger.warning('two')]);
    expect(await state(waits[0]!)).toBe('pending');
    abort.abort(new Error('stopped'));
    expect(await Promise.all(waits.map(state))).toEqual(['settled', 'settled']);
  });

  it('hands out one wait per drain, not one abort listener per message', () => {
    const abort = new AbortController();
    const { exchange } = behindForGood(abort.signal);
    const waits = inCall(exchange, () => Array.from({ length: 100 }, (_, i) => logger.debug(i)));
    expect(new Set(waits).size).toBe(1);
  });

  it('returns a settled promise when nothing was asked for or the call is over', async () => {
    const abort = new AbortController();
    const { exchange } = behindForGood(abort.signal);
    abort.abort(new Error('over'));
    expect(await state(inCall(exchange, () => logger.error('late')))).toBe('settled');
    expect(await state(logger.info('outside any call'))).toBe('settled');
  });
});
