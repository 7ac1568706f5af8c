import type { McpTaskQuota } from './mcp-task.quota.js';
import type { McpTaskRecord } from './mcp-task.record.js';

/**
 * Where tasks live between requests. An abstract class, so DI can swap it: the default keeps them
 * in this process's memory (bounded, expiring); `McpModule.forRoot({ taskStore })` or an
 * integration module (`INTEGRATION_TASK_STORE`, e.g. a shared Redis store) replaces it. Records are
 * plain JSON ({@link McpTaskRecord}); every method is async so a networked store fits.
 *
 * A store must make a created task readable at once (`get` after `create` resolves finds it: the
 * spec forbids answering with a task `tasks/get` cannot see yet), and may forget a task after its
 * `expiresAt`.
 *
 * Records are immutable values. A store may return the very object it holds (the in-memory store
 * does: a read then costs nothing, however large the task's arguments), so callers never mutate
 * what `get` or `update` gives them, and `change` builds a new record instead of editing its input.
 *
 * @publicApi
 */
export abstract class McpTaskStore {
  /**
   * Stores a new task. Rejects when the store cannot take more (the call then fails, nothing runs).
   * With a `quota`, it also rejects, with `McpTaskQuotaExceededException`, when the record's
   * `caller` already has `quota.maxRunning` live tasks or `quota.maxStored` stored ones; the check
   * and the write must be atomic (concurrent creates of one caller never pass the bound together).
   * A store that ignores `quota` enforces no per-caller bound.
   */
  abstract create(record: McpTaskRecord, quota?: McpTaskQuota): Promise<void>;

  /** The task, or undefined when unknown or expired. Do not mutate it. */
  abstract get(taskId: string): Promise<McpTaskRecord | undefined>;

  /**
   * Atomically reads, changes and writes one task: `change` gets the current record (which it must
   * not mutate) and returns the new one (`{ ...record, status }`), or undefined to leave it as it
   * is. Resolves to the record as stored afterwards (undefined when the task is unknown or
   * expired). A shared store implements it with optimistic concurrency (read, compute, write if
   * unchanged, retry), so `change` may run more than once and must not have side effects. A store
   * that keeps per-caller counts moves the task from running to finished when `change` makes its
   * status terminal.
   */
  abstract update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
  ): Promise<McpTaskRecord | undefined>;
}
