import { LIMIT_DEFAULTS, LIMITS, resolveLimits } from './mcp-limits.options.js';

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

describe('LIMIT_DEFAULTS', () => {
  it('is derived from the one definition of every bound, the moved ones included', () => {
    expect(LIMIT_DEFAULTS).toEqual({
      maxBodyBytes: 4_194_304,
      maxJsonDepth: 32,
      pageSize: 1000,
      maxUriLength: 2048,
      maxSubscriptionsPerSession: 100,
      maxListenFilterEntries: 1000,
      maxSessions: 10_000,
      maxSessionsPerCaller: 100,
      maxPendingRequestsPerSession: 32,
      maxInputRounds: 8,
      maxRequestStateChars: 65_536,
      maxAnswerChars: 16_384,
      maxStreamBacklogBytes: 1_048_576,
      maxTasks: 10_000,
      maxRunningTasksPerCaller: 100,
      maxStoredTasksPerCaller: 1000,
      maxStoredTaskBytesPerCaller: 33_554_432,
      maxTaskPayloadBytes: 1_048_576,
    });
    expect(Object.keys(LIMIT_DEFAULTS)).toEqual(Object.keys(LIMITS));
  });

  it('checks the moved bounds like the others, and refuses a limits that is not an object', () => {
    const problems: string[] = [];
    resolveLimits({ pageSize: 0, maxSessions: 2.5 }, problems);
    resolveLimits(5 as never, problems);
    expect(problems).toEqual([
      '`limits.pageSize` must be a positive integer',
      '`limits.maxSessions` must be a positive integer',
      '`limits` must be an object',
    ]);
  });
});
