import { McpOptionsError } from './core/mcp-options.error.js';
import { resolveMcpOptions } from './mcp.options.js';

const BASE = { name: 'orders', version: '1.0.0' };

describe('resolveMcpOptions: eras and the 2025-era leg', () => {
  it('serves both eras by default, with the documented legacy defaults', () => {
    const options = resolveMcpOptions(BASE);
    expect(options.eras).toEqual({ modern: true, legacy: true });
    expect(options.legacy).toEqual({
      maxInputRounds: 8,
      inputRoundTimeoutMs: 300_000,
      sessionTtlMs: 86_400_000,
      maxSessions: 10_000,
    });
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
      maxTasks: 10_000,
      leaseMs: 30_000,
    });
    expect(resolveMcpOptions({ ...BASE, tasks: { ttlMs: 60_000 } }).tasks.ttlMs).toBe(60_000);
  });

  it('lists every bad task setting at once', () => {
    expect(() => resolveMcpOptions({ ...BASE, tasks: { ttlMs: 0, pollIntervalMs: 2.5, maxTasks: -1 } })).toThrow(
      /`tasks.ttlMs` must be a positive integer[\s\S]*`tasks.pollIntervalMs`[\s\S]*`tasks.maxTasks`/,
    );
  });

  it('resolves the mrtr section once: every default applied, the character bounds under their new names', () => {
    const { mrtr } = resolveMcpOptions({ name: 'x', version: '1' });
    expect(mrtr).toEqual({
      secrets: undefined,
      ttlMs: 300_000,
      maxFlowMs: 3_600_000,
      maxTokenChars: 65_536,
      whenChanged: 'fail',
      maxReasks: 3,
      maxAnswerChars: 16_384,
      exactlyOnce: false,
    });
  });

  it('still takes the deprecated maxTokenBytes and maxAnswerBytes, and the new names win over them', () => {
    const old = resolveMcpOptions({ name: 'x', version: '1', mrtr: { maxTokenBytes: 9000, maxAnswerBytes: 900 } });
    expect([old.mrtr.maxTokenChars, old.mrtr.maxAnswerChars]).toEqual([9000, 900]);
    const both = resolveMcpOptions({
      name: 'x',
      version: '1',
      mrtr: { maxTokenBytes: 9000, maxTokenChars: 8000, maxAnswerBytes: 900, maxAnswerChars: 800 },
    });
    expect([both.mrtr.maxTokenChars, both.mrtr.maxAnswerChars]).toEqual([8000, 800]);
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
