import { McpError } from '../protocol/mcp.error.js';
import { isByteBudgetRefusal, McpTaskQuotaExceededException } from './task-quota-exceeded.exception.js';

const QUOTA = { maxRunning: 2, maxStored: 3, maxStoredBytes: 1000 };
const NOW = 1_000_000;
const thrown = (run: () => void): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('McpTaskQuotaExceededException.check', () => {
  it('passes a task that fits every bound, the byte budget to the byte', () => {
    expect(
      thrown(() => McpTaskQuotaExceededException.check({ running: 1, stored: 2, bytes: 600 }, QUOTA, 50, NOW, 400)),
    ).toBeUndefined();
  });

  it('refuses past the byte budget with -32050, 429 and a Retry-After of the oldest finished task', () => {
    const count = { running: 0, stored: 2, bytes: 601, oldestFinishedExpiresAt: NOW + 2500 };
    const error = thrown(() => McpTaskQuotaExceededException.check(count, QUOTA, 50, NOW, 400));
    expect(error).toBeInstanceOf(McpTaskQuotaExceededException);
    expect(error).toMatchObject({
      code: -32050,
      httpStatus: 429,
      httpHeaders: { 'retry-after': '3' },
      data: { retryAfterMs: 2500, limit: 'maxStoredTaskBytesPerCaller' },
      message:
        'Too many bytes of stored tasks for this caller (limits.maxStoredTaskBytesPerCaller is 1000); retry after 3 s',
    });
    expect(isByteBudgetRefusal(error)).toBe(true);
  });

  it('says which count bound is met first, and refuses a task larger than the whole budget with -32602 (400)', () => {
    const full = { running: 2, stored: 3, bytes: 1000 };
    expect(thrown(() => McpTaskQuotaExceededException.check(full, QUOTA, 50, NOW, 10))).toMatchObject({
      data: { limit: 'maxRunningTasksPerCaller' },
    });
    const huge = thrown(() => McpTaskQuotaExceededException.check(full, QUOTA, 50, NOW, 1001));
    expect(huge).not.toBeInstanceOf(McpTaskQuotaExceededException);
    expect(huge).toMatchObject({
      code: -32602,
      httpStatus: 400,
      data: { limit: 'maxStoredTaskBytesPerCaller', maxBytes: 1000 },
    });
    expect(isByteBudgetRefusal(huge)).toBe(true);
  });

  it('counts no bytes for a quota without a byte budget (a store used as before)', () => {
    const quota = { maxRunning: 2, maxStored: 3 };
    expect(
      thrown(() => McpTaskQuotaExceededException.check({ running: 0, stored: 0, bytes: 1e9 }, quota, 50, NOW, 1e9)),
    ).toBeUndefined();
  });
});

describe('McpTaskQuotaExceededException.checkGrowth', () => {
  it('refuses growth past the budget, never a change that does not grow the record', () => {
    const count = { bytes: 900 };
    expect(thrown(() => McpTaskQuotaExceededException.checkGrowth(count, QUOTA, 100, 300, 50, NOW))).toBeUndefined();
    expect(thrown(() => McpTaskQuotaExceededException.checkGrowth(count, QUOTA, 101, 301, 50, NOW))).toMatchObject({
      httpStatus: 429,
      data: { retryAfterMs: 50, limit: 'maxStoredTaskBytesPerCaller' },
    });
    expect(
      thrown(() => McpTaskQuotaExceededException.checkGrowth({ bytes: 5000 }, QUOTA, 0, 3000, 50, NOW)),
    ).toBeUndefined();
    expect(
      thrown(() => McpTaskQuotaExceededException.checkGrowth({ bytes: 5000 }, QUOTA, -10, 3000, 50, NOW)),
    ).toBeUndefined();
  });

  it('tells other errors apart from a budget refusal', () => {
    expect(isByteBudgetRefusal(new McpTaskQuotaExceededException('maxStoredTasksPerCaller', 10, 3))).toBe(false);
    expect(isByteBudgetRefusal(McpError.invalidParams('x', { limit: 'maxTaskPayloadBytes' }))).toBe(false);
    expect(isByteBudgetRefusal(new Error('maxStoredTaskBytesPerCaller'))).toBe(false);
  });
});
