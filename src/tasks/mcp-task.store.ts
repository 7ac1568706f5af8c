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
 * @publicApi
 */
export abstract class McpTaskStore {
  /** Stores a new task. Rejects when the store cannot take more (the call then fails, nothing runs). */
  abstract create(record: McpTaskRecord): Promise<void>;

  /** The task, or undefined when unknown or expired. */
  abstract get(taskId: string): Promise<McpTaskRecord | undefined>;

  /**
   * Atomically reads, changes and writes one task: `change` gets a copy of the current record and
   * returns the new one, or undefined to leave it as it is. Resolves to the record as stored
   * afterwards (undefined when the task is unknown or expired). A shared store implements it with
   * optimistic concurrency (read, compute, write if unchanged, retry), so `change` may run more
   * than once and must not have side effects.
   */
  abstract update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
  ): Promise<McpTaskRecord | undefined>;
}
