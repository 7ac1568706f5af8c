import { McpError } from '../protocol/mcp.error.js';
import type { McpTaskStore } from './mcp-task.store.js';

/**
 * The code of an exceeded rate limit (`MCP_RATE_LIMITED` of `@mocapi/nestjs/throttler`, which the
 * core cannot import): a caller at its quota retries later, as after a throttled call.
 */
const RATE_LIMITED = -32050;

/**
 * A caller asked for a task while at one of its quotas: the rate-limit error -32050 (the caller
 * may retry later, as after a throttled call) with `data: { retryAfterMs, limit }`, HTTP 429 and
 * `Retry-After` in whole seconds (rounded up). Stores throw it from `create`
 * ({@link McpTaskQuotaExceededException.check} decides from the caller's counts).
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
    const what = limit === 'maxRunningTasksPerCaller' ? 'running' : 'stored';
    super(
      RATE_LIMITED,
      `Too many ${what} tasks for this caller (limits.${limit} is ${max}); retry after ${seconds} s`,
      { retryAfterMs, limit },
      429,
      { 'retry-after': String(seconds) },
    );
    this.name = 'McpTaskQuotaExceededException';
  }

  /**
   * Throws when one more task would exceed `quota`. Running tasks suggest retrying after the poll
   * interval (one of them may finish by then); a full store, when the caller's oldest finished task
   * expires (the poll interval when every stored task is still running).
   */
  static check(count: McpTaskStore.CallerCount, quota: McpTaskStore.Quota, pollIntervalMs: number, now: number): void {
    if (count.running >= quota.maxRunning) {
      throw new McpTaskQuotaExceededException('maxRunningTasksPerCaller', pollIntervalMs, quota.maxRunning);
    }
    if (count.stored >= quota.maxStored) {
      const expires = count.oldestFinishedExpiresAt;
      const wait = expires === undefined ? pollIntervalMs : Math.max(1, expires - now);
      throw new McpTaskQuotaExceededException('maxStoredTasksPerCaller', wait, quota.maxStored);
    }
  }
}
