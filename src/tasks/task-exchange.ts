import type { Logger } from '@nestjs/common';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { logText } from '../telemetry/log-text.js';
import type { McpTaskEvents } from './mcp-task.events.js';
import type { McpTaskStore } from '../task-store/mcp-task.store.js';

/**
 * The exchange a task's handler sees: `signal` instead of the request's, and notifications that go
 * to the request until the call becomes a task (`taskIdOf()` is defined), then to `progress` (no
 * progress or log notification is sent for a task: its progress becomes its `statusMessage`).
 */
export function taskExchange(
  base: McpExchange,
  signal: AbortSignal,
  taskIdOf: () => string | undefined,
  progress: TaskProgressRecorder,
): McpExchange {
  const exchange = Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(base),
      signal: { value: signal, enumerable: true },
      progressToken: { get: () => taskIdOf() ?? base.progressToken, enumerable: true },
      logLevel: { get: () => (taskIdOf() === undefined ? base.logLevel : undefined), enumerable: true },
      notify: {
        value: (notification: JsonRpcNotification) => {
          const taskId = taskIdOf();
          if (taskId === undefined) base.notify(notification);
          else progress.record(taskId, notification);
        },
        enumerable: true,
      },
    },
  ) as McpExchange;
  return Object.freeze(exchange);
}

/**
 * Turns a task handler's progress reports into its `statusMessage`, with at most one write per
 * task in flight: reports that arrive meanwhile replace each other and only the newest is written
 * next. A handler reporting faster than the store writes then costs one write at a time, in order,
 * instead of one compare-and-set loop per report all racing on the same key of a shared store
 * (where they exhausted their attempts, and an older message could land last).
 */
export class TaskProgressRecorder {
  /** Tasks with a write in flight, and the newest message waiting for the next one (if any). */
  private readonly waiting = new Map<string, string | undefined>();

  constructor(
    private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
    private readonly isoNow: () => string,
    private readonly logger: Logger,
  ) {}

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
        const updated = await this.store.update(taskId, (record) =>
          record.status === 'working' ? { ...record, statusMessage: message, lastUpdatedAt: this.isoNow() } : undefined,
        );
        if (updated && updated.statusMessage === message) this.events.emit(updated);
      } catch (error) {
        this.logger.warn(
          `Could not record progress of task ${taskId}: ${logText(error instanceof Error ? error.message : error)}`,
        );
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
