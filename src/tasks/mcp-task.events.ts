import { Injectable } from '@nestjs/common';
import type { McpTaskRecord } from './mcp-task.record.js';

/** Hears every change of a task's status or status message made on this node. */
export type McpTaskListener = (record: McpTaskRecord) => void;

/**
 * The task changes made on this node, for `notifications/tasks` on `subscriptions/listen` streams.
 * Per node: a client listening on one node hears about the tasks that change there (a task's
 * handler and its `tasks/update` / `tasks/cancel` requests); polling `tasks/get` sees them all.
 */
@Injectable()
export class McpTaskEvents {
  private readonly listeners = new Set<McpTaskListener>();

  /** Subscribes; returns the unsubscribe function. */
  on(listener: McpTaskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(record: McpTaskRecord): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(record);
      } catch {
        // A listener's failure (a closed stream) must not stop the task or the other listeners.
      }
    }
  }
}
