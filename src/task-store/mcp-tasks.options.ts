import { POSITIVE_INTEGER } from '../core/option-checks.js';
import { defineSection, movedTo, option, type ResolvedSection, resolveSection } from '../core/option-section.js';

/** Settings of the `io.modelcontextprotocol/tasks` extension (tools declared with `taskSupport`). */
export interface McpTasksOptions {
  /** How long a task is kept from its creation (its `ttlMs`), in ms; a handler still running then is aborted. Default 3600000 (1 hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients (`pollIntervalMs`), in ms. Default 1000. */
  pollIntervalMs?: number;
  /**
   * How long a running task's node vouches for it, in ms; the node renews it every third of that.
   * A task whose node stopped (killed, or lost) ends `failed` on the next `tasks/get` of any node
   * at most this long after the node's last renewal. Default 30000.
   */
  leaseMs?: number;
  /**
   * How many tasks the in-memory store holds at most.
   *
   * @deprecated Use `limits.maxTasks`.
   */
  maxTasks?: number;
}

/** The check and the default of every setting of {@link McpTasksOptions}. */
export const TASKS = defineSection<McpTasksOptions>()({
  ttlMs: option(POSITIVE_INTEGER, 3_600_000),
  pollIntervalMs: option(POSITIVE_INTEGER, 1000),
  leaseMs: option(POSITIVE_INTEGER, 30_000),
  maxTasks: movedTo(POSITIVE_INTEGER, 'limits.maxTasks'),
});

/** {@link McpTasksOptions} after defaults were applied; the store's bound is `limits.maxTasks` (`MCP_LIMITS`). */
export type ResolvedMcpTasksOptions = ResolvedSection<typeof TASKS>;

/** Injection token of the {@link ResolvedMcpTasksOptions}. */
export const MCP_TASKS_OPTIONS = Symbol.for('mocapi:options:tasks');

/** Applies the defaults of `tasks`; each problem found is added to `problems`. */
export function resolveTasksOptions(raw: McpTasksOptions | undefined, problems: string[]): ResolvedMcpTasksOptions {
  return resolveSection(TASKS, raw, 'tasks.', problems);
}
