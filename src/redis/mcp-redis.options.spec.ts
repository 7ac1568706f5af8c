import { resolveMcpRedisOptions } from './mcp-redis.options.js';

describe('McpRedisModule options', () => {
  it('need exactly one of connection and client', () => {
    expect(() => resolveMcpRedisOptions({})).toThrow(/exactly one of `connection`/);
    expect(() => resolveMcpRedisOptions({ connection: 'redis://x', client: {} as never })).toThrow(/exactly one/);
  });

  it('apply the defaults', () => {
    expect(resolveMcpRedisOptions({ connection: 'redis://127.0.0.1:6379' })).toEqual({
      connection: 'redis://127.0.0.1:6379',
      client: undefined,
      keyPrefix: 'mocapi:',
      commandTimeoutMs: 2000,
      flowClaimTtlMs: 15_000,
    });
  });

  it('refuse timings that are not positive integers', () => {
    expect(() => resolveMcpRedisOptions({ connection: {}, commandTimeoutMs: 0 })).toThrow(/commandTimeoutMs/);
    expect(() => resolveMcpRedisOptions({ connection: {}, flowClaimTtlMs: 1.5 })).toThrow(/flowClaimTtlMs/);
  });
});
