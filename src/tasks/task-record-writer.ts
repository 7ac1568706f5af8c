import type { McpClock } from '../core/mcp-clock.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import type { McpTaskStore } from '../task-store/mcp-task.store.js';
import type { McpTaskEvents } from './mcp-task-events.js';

/**
 * A record transition (task-transitions.ts): the next record, or undefined to leave it as it is.
 * `now` is the ISO 8601 time of the change.
 */
export type TaskTransition = (record: McpTaskRecord, now: string) => McpTaskRecord | undefined;

/**
 * Applies a transition to a task in the store and tells the task's listeners (notifications/tasks,
 * other nodes through a shared bus) when it changed something: the one way this node writes a task.
 * What a client or a handler adds to a task is written {@link applyWithinBudget}; what the server
 * itself decides (a cancellation, a failure) with {@link apply}, so it is never refused.
 */
export class TaskRecordWriter {
  constructor(
    private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
    private readonly clock: McpClock,
    /** `limits.maxStoredTaskBytesPerCaller`: none, nothing is refused. */
    readonly maxStoredBytes?: number,
  ) {}

  /** Resolves to the task as stored when the transition changed it, else to undefined. */
  apply(taskId: string, transition: TaskTransition): Promise<McpTaskRecord | undefined> {
    return this.write(taskId, transition);
  }

  /**
   * As {@link apply}, but rejects, writing nothing, when the change would make the task larger and
   * take its caller's stored tasks past `maxStoredBytes` (`McpTaskQuotaExceededException`, or
   * -32602 when the task alone would pass it).
   */
  applyWithinBudget(taskId: string, transition: TaskTransition): Promise<McpTaskRecord | undefined> {
    return this.write(taskId, transition, { maxStoredBytes: this.maxStoredBytes });
  }

  private async write(
    taskId: string,
    transition: TaskTransition,
    quota?: Pick<McpTaskStore.Quota, 'maxStoredBytes'>,
  ): Promise<McpTaskRecord | undefined> {
    // The store may run the transition more than once (compare-and-set): its last run counts.
    let changed = false;
    const change = (record: McpTaskRecord) => {
      const next = transition(record, new Date(this.clock.now()).toISOString());
      changed = next !== undefined;
      return next;
    };
    const updated = await this.store.update(taskId, change, quota);
    if (!updated || !changed) return undefined;
    this.events.emit(updated);
    return updated;
  }
}
