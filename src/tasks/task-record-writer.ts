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
 */
export class TaskRecordWriter {
  constructor(
    private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
    private readonly clock: McpClock,
  ) {}

  /** Resolves to the task as stored when the transition changed it, else to undefined. */
  async apply(taskId: string, transition: TaskTransition): Promise<McpTaskRecord | undefined> {
    // The store may run the transition more than once (compare-and-set): its last run counts.
    let changed = false;
    const updated = await this.store.update(taskId, (record) => {
      const next = transition(record, new Date(this.clock.now()).toISOString());
      changed = next !== undefined;
      return next;
    });
    if (!updated || !changed) return undefined;
    this.events.emit(updated);
    return updated;
  }
}
