/**
 * The per-caller bounds a store enforces when it creates a task, counted per
 * {@link McpTaskRecord.caller}: at most `maxRunning` live tasks (working or input_required) and at
 * most `maxStored` tasks held (live, or finished and not yet expired). The runner passes
 * `limits.maxRunningTasksPerCaller` and `limits.maxStoredTasksPerCaller`.
 *
 * @publicApi
 */
export interface McpTaskQuota {
  readonly maxRunning: number;
  readonly maxStored: number;
}

/**
 * What a caller's tasks add up to at the moment it asks for one more, so a store can say which
 * bound is met and when to retry. `oldestFinishedExpiresAt` is the ms epoch at which the caller's
 * earliest-expiring finished task goes, if it has one.
 *
 * @publicApi
 */
export interface McpTaskCallerCount {
  readonly running: number;
  readonly stored: number;
  readonly oldestFinishedExpiresAt?: number;
}
