import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { LIMIT_DEFAULTS } from './core/mcp-limits.options.js';
import { McpOptionsError } from './core/mcp-options.error.js';
import { LEGACY_DEFAULTS } from './legacy/mcp-legacy.options.js';
import { type McpModuleOptions, type ResolvedMcpOptions, resolveMcpOptions } from './mcp.options.js';
import { MRTR_DEFAULTS } from './mrtr/mcp-mrtr.options.js';

const BASE = { name: 'orders', version: '1.0.0' };

describe('resolveMcpOptions: eras and the 2025-era leg', () => {
  it('serves both eras by default, with the documented legacy defaults', () => {
    const options = resolveMcpOptions(BASE);
    expect(options.eras).toEqual({ modern: true, legacy: true });
    expect(options.legacy).toEqual({ sessionTtlMs: 86_400_000 });
    // The legacy bounds that moved, each resolved in its one home.
    expect([options.limits.maxInputRounds, options.mrtr.ttlMs, options.limits.maxSessions]).toEqual([
      8, 300_000, 10_000,
    ]);
  });

  it('selects one era', () => {
    expect(resolveMcpOptions({ ...BASE, eras: ['modern'] }).eras).toEqual({ modern: true, legacy: false });
    expect(resolveMcpOptions({ ...BASE, eras: ['legacy'] }).eras).toEqual({ modern: false, legacy: true });
  });

  it.each([[[]], [['future']], ['modern']])('refuses eras %p, saying what to set', (eras) => {
    expect(() => resolveMcpOptions({ ...BASE, eras: eras as never })).toThrow(
      /`eras` must be a non-empty array of 'modern' and\/or 'legacy'/,
    );
  });

  it('lists every bad legacy setting at once', () => {
    try {
      resolveMcpOptions({
        ...BASE,
        legacy: { maxInputRounds: 0, inputRoundTimeoutMs: 1.5, sessionTtlMs: -1, maxSessions: Number.NaN },
      });
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(McpOptionsError);
      for (const key of ['maxInputRounds', 'inputRoundTimeoutMs', 'sessionTtlMs', 'maxSessions']) {
        expect((error as Error).message).toContain(`\`legacy.${key}\` must be a positive integer`);
      }
    }
  });
});

describe('resolveMcpOptions: tasks', () => {
  it('keeps a task an hour, suggests polling every second and leases running tasks for 30 s by default', () => {
    expect(resolveMcpOptions(BASE).tasks).toEqual({
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
      leaseMs: 30_000,
    });
    expect(resolveMcpOptions(BASE).limits.maxTasks).toBe(10_000);
    expect(resolveMcpOptions({ ...BASE, tasks: { ttlMs: 60_000 } }).tasks.ttlMs).toBe(60_000);
  });

  it('lists every bad task setting at once', () => {
    expect(() => resolveMcpOptions({ ...BASE, tasks: { ttlMs: 0, pollIntervalMs: 2.5, maxTasks: -1 } })).toThrow(
      /`tasks.ttlMs` must be a positive integer[\s\S]*`tasks.pollIntervalMs`[\s\S]*`tasks.maxTasks`/,
    );
  });

  it('resolves the mrtr section once: every default applied, the character bounds under limits', () => {
    const { mrtr, limits } = resolveMcpOptions({ name: 'x', version: '1' });
    expect(mrtr).toEqual({
      secrets: undefined,
      ttlMs: 300_000,
      maxFlowMs: 3_600_000,
      whenChanged: 'fail',
      maxReasks: 3,
      exactlyOnce: false,
    });
    expect([limits.maxRequestStateChars, limits.maxAnswerChars]).toEqual([65_536, 16_384]);
  });

  it('still takes the deprecated maxTokenBytes and maxAnswerBytes, and the new names win over them', () => {
    const old = resolveMcpOptions({ name: 'x', version: '1', mrtr: { maxTokenBytes: 9000, maxAnswerBytes: 900 } });
    expect([old.limits.maxRequestStateChars, old.limits.maxAnswerChars]).toEqual([9000, 900]);
    const both = resolveMcpOptions({
      name: 'x',
      version: '1',
      mrtr: { maxTokenBytes: 9000, maxTokenChars: 8000, maxAnswerBytes: 900, maxAnswerChars: 800 },
    });
    expect([both.limits.maxRequestStateChars, both.limits.maxAnswerChars]).toEqual([8000, 800]);
    expect(() => resolveMcpOptions({ name: 'x', version: '1', mrtr: { maxTokenChars: 0 } })).toThrow(
      /`mrtr.maxTokenChars` must be a positive integer/,
    );
  });

  it('sends SSE keep-alive comments every 25 s unless told otherwise, and refuses a bad interval', () => {
    expect(resolveMcpOptions(BASE).sseKeepAliveMs).toBe(25_000);
    expect(resolveMcpOptions({ ...BASE, sseKeepAliveMs: 0 }).sseKeepAliveMs).toBe(0);
    for (const bad of [-1, 2.5, Number.NaN, '1000']) {
      expect(() => resolveMcpOptions({ ...BASE, sseKeepAliveMs: bad as never })).toThrow(
        /`sseKeepAliveMs` must be a whole number of milliseconds, 0 or more/,
      );
    }
  });
});

/** Resolves `options`, keeping the warnings logged. */
function resolveWarned(options: Parameters<typeof resolveMcpOptions>[0]) {
  const warnings: string[] = [];
  const resolved = resolveMcpOptions(options, { warn: (message: unknown) => void warnings.push(String(message)) });
  return { resolved, warnings };
}

describe('resolveMcpOptions: every bound under limits, the old spellings honored', () => {
  it('derives every default from the section definitions, and resolves each moved bound only under its new home', () => {
    const { resolved, warnings } = resolveWarned(BASE);
    expect(warnings).toEqual([]);
    expect(resolved.limits).toEqual(LIMIT_DEFAULTS);
    expect(resolved.limits).toMatchObject({
      maxBodyBytes: 4 * 1024 * 1024,
      maxJsonDepth: 32,
      pageSize: 1000,
      maxSessions: 10_000,
      maxInputRounds: 8,
      maxRequestStateChars: 65_536,
      maxAnswerChars: 16_384,
      maxTasks: 10_000,
    });
    for (const key of ['pageSize', 'maxBodyBytes', 'maxJsonDepth']) expect(resolved).not.toHaveProperty(key);
    for (const key of ['maxTokenChars', 'maxAnswerChars']) expect(resolved.mrtr).not.toHaveProperty(key);
    expect(resolved.tasks).not.toHaveProperty('maxTasks');
    for (const key of ['maxInputRounds', 'maxSessions', 'inputRoundTimeoutMs'])
      expect(resolved.legacy).not.toHaveProperty(key);
    expect(resolved.mrtr).toEqual(MRTR_DEFAULTS);
    expect(resolved.legacy).toEqual(LEGACY_DEFAULTS);
    expect(resolved.cache).toEqual({ ttlMs: 0, scope: 'private' });
    expect(resolved.path).toBe('/mcp');
  });

  it('reads the new spellings', () => {
    const { resolved, warnings } = resolveWarned({
      ...BASE,
      mrtr: { ttlMs: 60_000 },
      limits: {
        pageSize: 10,
        maxBodyBytes: 2048,
        maxJsonDepth: 8,
        maxSessions: 50,
        maxInputRounds: 2,
        maxRequestStateChars: 4096,
        maxAnswerChars: 512,
        maxTasks: 20,
      },
    });
    expect(warnings).toEqual([]);
    expect(resolved.limits).toMatchObject({
      pageSize: 10,
      maxBodyBytes: 2048,
      maxJsonDepth: 8,
      maxSessions: 50,
      maxInputRounds: 2,
      maxRequestStateChars: 4096,
      maxAnswerChars: 512,
      maxTasks: 20,
    });
    expect(resolved.mrtr.ttlMs).toBe(60_000);
  });

  // [old spelling, new spelling]
  const ALIASES: [string, string][] = [
    ['pageSize', 'limits.pageSize'],
    ['maxBodyBytes', 'limits.maxBodyBytes'],
    ['maxJsonDepth', 'limits.maxJsonDepth'],
    ['mrtr.maxTokenChars', 'limits.maxRequestStateChars'],
    ['mrtr.maxTokenBytes', 'limits.maxRequestStateChars'],
    ['mrtr.maxAnswerChars', 'limits.maxAnswerChars'],
    ['mrtr.maxAnswerBytes', 'limits.maxAnswerChars'],
    ['tasks.maxTasks', 'limits.maxTasks'],
    ['legacy.maxInputRounds', 'limits.maxInputRounds'],
    ['legacy.maxSessions', 'limits.maxSessions'],
    ['legacy.inputRoundTimeoutMs', 'mrtr.ttlMs'],
  ];
  /** The value resolved under `spelling` ('a' or 'section.a'), undefined when there is none. */
  const at = (o: ResolvedMcpOptions, spelling: string): unknown => {
    const [first, second] = spelling.split('.');
    const top = (o as unknown as Record<string, unknown>)[first];
    return second === undefined ? top : (top as Record<string, unknown> | undefined)?.[second];
  };
  /** BASE with each `spelling` ('a' or 'section.a') set to its value. */
  const withOptions = (...set: [string, number][]): McpModuleOptions => {
    const options: Record<string, unknown> = { ...BASE };
    for (const [spelling, value] of set) {
      const [first, second] = spelling.split('.');
      if (second === undefined) options[first] = value;
      else options[first] = { ...(options[first] as object), [second]: value };
    }
    return options as unknown as McpModuleOptions;
  };

  it.each(ALIASES)('honors the deprecated %s as %s, with one warning naming the new spelling', (old, to) => {
    const { resolved, warnings } = resolveWarned(withOptions([old, 7]));
    expect([at(resolved, to), at(resolved, old)]).toEqual([7, undefined]);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^Option \`${old.replace('.', '\\.')}\` is deprecated: .*set \`${to}\` instead\\.$`),
      ),
    ]);
  });

  it.each(ALIASES)('lets the new spelling win over the deprecated %s (%s), and says so', (old, to) => {
    const { resolved, warnings } = resolveWarned(withOptions([old, 7], [to, 9]));
    expect([at(resolved, to), at(resolved, old)]).toEqual([9, undefined]);
    expect(warnings).toEqual([
      `Option \`${old}\` is deprecated and ignored: \`${to}\` is set too, and the new spelling wins. Remove \`${old}\`.`,
    ]);
  });

  it('says that a round timeout set for the 2025 era now applies to both eras', () => {
    const { warnings } = resolveWarned({ ...BASE, legacy: { inputRoundTimeoutMs: 60_000 } });
    expect(warnings[0]).toMatch(/its value is used as `mrtr\.ttlMs` \(.*both eras\)/);
  });

  it('between two old spellings of one bound, the newer one wins, and the warning names it', () => {
    const { resolved, warnings } = resolveWarned({ ...BASE, mrtr: { maxTokenChars: 8000, maxTokenBytes: 9000 } });
    expect(resolved.limits.maxRequestStateChars).toBe(8000);
    expect(warnings).toEqual([
      expect.stringContaining('`mrtr.maxTokenChars` is deprecated: its value is used as `limits.maxRequestStateChars`'),
      'Option `mrtr.maxTokenBytes` is deprecated and ignored: `mrtr.maxTokenChars` is set too, and it wins (both are old spellings of `limits.maxRequestStateChars`). Remove `mrtr.maxTokenBytes`.',
    ]);
  });

  it('refuses a bad value under the spelling it was set with, once, and leaves the application its object', () => {
    const options = { ...BASE, legacy: { maxSessions: 0 } };
    expect(() => resolveWarned(options)).toThrow(/`legacy.maxSessions` must be a positive integer/);
    expect(() => resolveWarned(options)).not.toThrow(/limits\.maxSessions/);
    const kept = { ...BASE, legacy: { maxSessions: 5 }, limits: { maxUriLength: 100 } };
    resolveWarned(kept);
    expect(kept).toEqual({ ...BASE, legacy: { maxSessions: 5 }, limits: { maxUriLength: 100 } });
  });

  it('logs on the McpModule logger when none is given', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      resolveMcpOptions({ ...BASE, pageSize: 5 });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toContain('`limits.pageSize`');
    } finally {
      warn.mockRestore();
    }
  });
});
