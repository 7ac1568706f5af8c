import { LIMIT_DEFAULTS, resolveLimits } from './mcp-limits.options.js';

describe('resolveLimits', () => {
  it('applies the default of every bound not given, and keeps those given', () => {
    const problems: string[] = [];
    expect(resolveLimits(undefined, problems)).toEqual(LIMIT_DEFAULTS);
    expect(resolveLimits({ maxUriLength: 512, maxSessionsPerCaller: undefined }, problems)).toEqual({
      ...LIMIT_DEFAULTS,
      maxUriLength: 512,
    });
    expect(problems).toEqual([]);
  });

  it('names every bound that is not a positive integer', () => {
    const problems: string[] = [];
    resolveLimits({ maxUriLength: 0, maxStreamBacklogBytes: 1.5, maxTaskPayloadBytes: -1 }, problems);
    expect(problems).toEqual([
      '`limits.maxUriLength` must be a positive integer',
      '`limits.maxStreamBacklogBytes` must be a positive integer',
      '`limits.maxTaskPayloadBytes` must be a positive integer',
    ]);
  });
});
