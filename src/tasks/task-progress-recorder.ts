import type { Logger } from '@nestjs/common';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import { logText } from '../protocol/log-text.js';
import { isByteBudgetRefusal } from '../task-store/task-quota-exceeded.exception.js';
import type { TaskRecordWriter } from './task-record-writer.js';
import { progressedRecord } from './task-transitions.js';

/**
 * Turns a task handler's progress reports into its `statusMessage`, with at most one write per
 * task in flight: reports that arrive meanwhile replace each other and only the newest is written
 * next. A handler reporting faster than the store writes then costs one write at a time, in order,
 * instead of one compare-and-set loop per report all racing on the same key of a shared store
 * (where they exhausted their attempts, and an older message could land last). A report that
 * would take the caller's stored tasks past `limits.maxStoredTaskBytesPerCaller` is dropped.
 */
export class TaskProgressRecorder {
  /** Tasks with a write in flight, and the newest message waiting for the next one (if any). */
  private readonly waiting = new Map<string, string | undefined>();

  constructor(
    private readonly writer: TaskRecordWriter,
    private readonly logger: Logger,
  ) {}

  /** Takes one notification of the task's handler; only progress reports change the task. */
  record(taskId: string, notification: JsonRpcNotification): void {
    const statusMessage = progressStatusMessage(notification);
    if (statusMessage === undefined) return;
    if (this.waiting.has(taskId)) {
      this.waiting.set(taskId, statusMessage);
      return;
    }
    this.waiting.set(taskId, undefined);
    void this.write(taskId, statusMessage);
  }

  private async write(taskId: string, first: string): Promise<void> {
    for (let statusMessage: string | undefined = first; statusMessage !== undefined;) {
      const message = statusMessage;
      try {
        await this.writer.applyWithinBudget(taskId, (record, now) => progressedRecord(record, message, now));
      } catch (error) {
        // A report that would take the caller's stored tasks past their byte budget is dropped, as
        // reports are while a client reads behind: the next one (or the ending) says where the task is.
        if (!isByteBudgetRefusal(error)) {
          this.logger.warn(
            `Could not record progress of task ${taskId}: ${logText(error instanceof Error ? error.message : error)}`,
          );
        }
      }
      statusMessage = this.waiting.get(taskId);
      this.waiting.set(taskId, undefined);
    }
    this.waiting.delete(taskId);
  }
}

/** The statusMessage a progress notification sets: its message, else "Progress n[ of total]". */
function progressStatusMessage(notification: JsonRpcNotification): string | undefined {
  if (notification.method !== 'notifications/progress') return undefined;
  const { progress, total, message } = (notification.params ?? {}) as Record<string, unknown>;
  if (typeof message === 'string') return message;
  return `Progress ${String(progress)}${typeof total === 'number' ? ` of ${total}` : ''}`;
}
