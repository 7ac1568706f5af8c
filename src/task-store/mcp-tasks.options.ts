import { LIMIT_DEFAULTS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';
import { POSITIVE_INTEGER } from '../core/option-checks.js';
import {
  defineSection,
  movedTo,
  option,
  type ResolvedSection,
  resolveSection,
  type SectionOptions,
} from '../core/option-section.js';

/** Settings of the `io.modelcontextprotocol/tasks` extension (tools declared with `taskSupport`). */
export const TASKS = defineSection({
  /** How long a task is kept from its creation (its `ttlMs`), in ms; a handler still running then is aborted. Default 3600000 (1 hour). */
  ttlMs: option(POSITIVE_INTEGER, 3_600_000),
  /** The polling interval suggested to clients (`pollIntervalMs`), in ms. Default 1000. */
  pollIntervalMs: option(POSITIVE_INTEGER, 1000),
  /**
   * How long a running task's node vouches for it, in ms; the node renews it every third of that.
   * A task whose node stopped (killed, or lost) ends `failed` on the next `tasks/get` of any node
   * at most this long after the node's last renewal. Default 30000.
   */
  leaseMs: option(POSITIVE_INTEGER, 30_000),
  /** @deprecated Use `limits.maxTasks`. How many tasks the in-memory store holds at most. */
  maxTasks: movedTo(POSITIVE_INTEGER, 'limits.maxTasks'),
});

/** Settings of the `io.modelcontextprotocol/tasks` extension (tools declared with `taskSupport`). */
export type McpTasksOptions = SectionOptions<typeof TASKS>;

/**
 * {@link McpTasksOptions} after defaults were applied, with `maxTasks` (now `limits.maxTasks`)
 * copied from the resolved limits for the readers that still take it from here.
 */
export type ResolvedMcpTasksOptions = ResolvedSection<typeof TASKS> & Pick<ResolvedMcpLimits, 'maxTasks'>;

/** Injection token of the {@link ResolvedMcpTasksOptions}. */
export const MCP_TASKS_OPTIONS = Symbol.for('mocapi:options:tasks');

/** Applies the defaults of `tasks`; each problem found is added to `problems`. `maxTasks` comes from the resolved `limits`. */
export function resolveTasksOptions(
  raw: McpTasksOptions | undefined,
  problems: string[],
  limits: ResolvedMcpLimits = LIMIT_DEFAULTS,
): ResolvedMcpTasksOptions {
  return { ...resolveSection(TASKS, raw, 'tasks.', problems), maxTasks: limits.maxTasks };
}
