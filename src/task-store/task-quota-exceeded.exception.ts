import { McpError } from '../protocol/mcp.error.js';
import type { McpTaskStore } from './mcp-task.store.js';

/**
 * The code of an exceeded rate limit (`MCP_RATE_LIMITED` of `@mocapi/nestjs/throttler`, which the
 * core cannot import): a caller at its quota retries later, as after a throttled call.
 */
const RATE_LIMITED = -32050;

const BYTE_BUDGET: McpTaskStore.QuotaLimit = 'maxStoredTaskBytesPerCaller';

/** What the refusal says a caller has too many of. */
const WHAT: Record<McpTaskStore.QuotaLimit, string> = {
  maxRunningTasksPerCaller: 'running tasks',
  maxStoredTasksPerCaller: 'stored tasks',
  maxStoredTaskBytesPerCaller: 'bytes of stored tasks',
};

/**
 * A caller asked for a task (or for more of one) while at one of its quotas: the rate-limit error
 * -32050 (the caller may retry later, as after a throttled call) with
 * `data: { retryAfterMs, limit }`, HTTP 429 and `Retry-After` in whole seconds (rounded up). Stores
 * throw it from `create` ({@link McpTaskQuotaExceededException.check} decides from the caller's
 * counts) and, past the byte budget, from `update`
 * ({@link McpTaskQuotaExceededException.checkGrowth}).
 *
 * @publicApi
 */
export class McpTaskQuotaExceededException extends McpError {
  constructor(
    readonly limit: McpTaskStore.QuotaLimit,
    readonly retryAfterMs: number,
    max: number,
  ) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(
      RATE_LIMITED,
      `Too many ${WHAT[limit]} for this caller (limits.${limit} is ${max}); retry after ${seconds} s`,
      { retryAfterMs, limit },
      429,
      { 'retry-after': String(seconds) },
    );
    this.name = 'McpTaskQuotaExceededException';
  }

  /**
   * Throws when one more task, of `recordBytes` bytes (see {@link McpTaskStore.Quota}), would
   * exceed `quota`. Running tasks suggest retrying after the poll interval (one of them may finish
   * by then); a full store or byte budget, when the caller's oldest finished task expires (the poll
   * interval when every stored task is still running). A record that alone takes more than
   * `quota.maxStoredBytes` can never be stored: -32602, HTTP 400 (retrying would not help).
   */
  static check(
    count: McpTaskStore.CallerCount,
    quota: McpTaskStore.Quota,
    pollIntervalMs: number,
    now: number,
    recordBytes = 0,
  ): void {
    tooLargeForBudget(recordBytes, quota);
    if (count.running >= quota.maxRunning) {
      throw new McpTaskQuotaExceededException('maxRunningTasksPerCaller', pollIntervalMs, quota.maxRunning);
    }
    if (count.stored >= quota.maxStored) {
      throw new McpTaskQuotaExceededException(
        'maxStoredTasksPerCaller',
        wait(count, pollIntervalMs, now),
        quota.maxStored,
      );
    }
    McpTaskQuotaExceededException.checkGrowth(count, quota, recordBytes, recordBytes, pollIntervalMs, now);
  }

  /**
   * Throws when a record growing by `growth` bytes, to `recordBytes`, would take the caller's
   * stored bytes (`count.bytes`, before the change) past `quota.maxStoredBytes`: -32050 (HTTP 429,
   * `Retry-After` as for a full store), or -32602 (HTTP 400) when the record alone is larger than
   * the budget. A change that does not grow the record, or a quota without `maxStoredBytes`, passes.
   */
  static checkGrowth(
    count: Pick<McpTaskStore.CallerCount, 'bytes' | 'oldestFinishedExpiresAt'>,
    quota: Pick<McpTaskStore.Quota, 'maxStoredBytes'>,
    growth: number,
    recordBytes: number,
    pollIntervalMs: number,
    now: number,
  ): void {
    const max = quota.maxStoredBytes;
    if (max === undefined || growth <= 0) return;
    tooLargeForBudget(recordBytes, quota);
    if ((count.bytes ?? 0) + growth > max) {
      throw new McpTaskQuotaExceededException(BYTE_BUDGET, wait(count, pollIntervalMs, now), max);
    }
  }
}

/** When the caller's stored tasks may make room: its oldest finished task expiring, else the poll interval. */
function wait(
  count: Pick<McpTaskStore.CallerCount, 'oldestFinishedExpiresAt'>,
  pollIntervalMs: number,
  now: number,
): number {
  const expires = count.oldestFinishedExpiresAt;
  return expires === undefined ? pollIntervalMs : Math.max(1, expires - now);
}

/** Refuses a record that could never be stored, however many of the caller's tasks expire. */
function tooLargeForBudget(recordBytes: number, { maxStoredBytes }: Pick<McpTaskStore.Quota, 'maxStoredBytes'>): void {
  if (maxStoredBytes === undefined || recordBytes <= maxStoredBytes) return;
  throw McpError.invalidParams(
    `This task would take ${recordBytes} bytes in the task store, more than limits.maxStoredTaskBytesPerCaller (${maxStoredBytes}) allows all of a caller's tasks together`,
    { limit: BYTE_BUDGET, maxBytes: maxStoredBytes },
    400,
  );
}

/**
 * Whether `error` is a store's refusal of a write past `limits.maxStoredTaskBytesPerCaller` (the
 * caller's budget is full, or the record alone would pass it).
 */
export function isByteBudgetRefusal(error: unknown): error is McpError {
  return error instanceof McpError && (error.data as { limit?: unknown } | undefined)?.limit === BYTE_BUDGET;
}
