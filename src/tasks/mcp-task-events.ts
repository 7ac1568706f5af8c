import { Injectable } from '@nestjs/common';
import { McpEventBus } from '../events/mcp-event-bus.js';
import { type McpTaskRecord, statusOf } from '../task-store/mcp-task-record.js';

/** Hears every change of a task's status or status message (the record without its arguments). */
export type McpTaskListener = (record: McpTaskRecord) => void;

/**
 * Task changes for `notifications/tasks` on `subscriptions/listen` streams, carried by the
 * {@link McpEventBus}: within the node by default; with a shared bus (e.g. `@mocapi/nestjs/redis`)
 * a client listening on one node hears about a task that changes on another (its handler's node, or
 * wherever its `tasks/update` / `tasks/cancel` landed).
 */
@Injectable()
export class McpTaskEvents {
  constructor(private readonly bus: McpEventBus) {}

  /** Subscribes; returns the unsubscribe function. */
  on(listener: McpTaskListener): () => void {
    return this.bus.subscribe((event) => {
      if (event.kind !== 'task_changed') return;
      try {
        listener(event.task);
      } catch {
        // A listener's failure (a closed stream) must not stop the task or the other listeners.
      }
    });
  }

  /**
   * Publishes the task's status, without its arguments and replay ledger: they never change, can be
   * large, and a shared bus would serialise them on every progress report.
   */
  emit(record: McpTaskRecord): void {
    this.bus.publish({ kind: 'task_changed', task: statusOf(record) });
  }
}
