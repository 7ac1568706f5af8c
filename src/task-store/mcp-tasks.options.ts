import { checkPositiveIntegers } from '../core/option-checks.js';

/** Settings of the `io.modelcontextprotocol/tasks` extension (tools declared with `taskSupport`). */
export interface McpTasksOptions {
  /** How long a task is kept from its creation (its `ttlMs`), in ms; a handler still running then is aborted. Default 3600000 (1 hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients (`pollIntervalMs`), in ms. Default 1000. */
  pollIntervalMs?: number;
  /** How many tasks the in-memory store holds at most (finished ones make room first). Default 10000. */
  maxTasks?: number;
  /**
   * How long a running task's node vouches for it, in ms; the node renews it every third of that.
   * A task whose node stopped (killed, or lost) ends `failed` on the next `tasks/get` of any node
   * at most this long after the node's last renewal. Default 30000.
   */
  leaseMs?: number;
}

/** {@link McpTasksOptions} after defaults were applied. */
export type ResolvedMcpTasksOptions = Readonly<Required<McpTasksOptions>>;

/** Injection token of the {@link ResolvedMcpTasksOptions}. */
export const MCP_TASKS_OPTIONS = Symbol.for('mocapi:options:tasks');

/** Applies the defaults of `tasks`; each problem found is added to `problems`. */
export function resolveTasksOptions(raw: McpTasksOptions | undefined, problems: string[]): ResolvedMcpTasksOptions {
  const tasks = raw ?? {};
  checkPositiveIntegers(tasks, ['ttlMs', 'pollIntervalMs', 'maxTasks', 'leaseMs'], 'tasks.', problems);
  return {
    ttlMs: tasks.ttlMs ?? 3_600_000,
    pollIntervalMs: tasks.pollIntervalMs ?? 1000,
    maxTasks: tasks.maxTasks ?? 10_000,
    leaseMs: tasks.leaseMs ?? 30_000,
  };
}
