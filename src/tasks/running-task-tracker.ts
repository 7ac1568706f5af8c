import type { McpClock } from '../core/mcp-clock.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import { TaskAbortedError } from '../task-store/task-aborted.error.js';

/**
 * The task handlers running on this node, by task id: the abort controller that cancellation,
 * shutdown and the task's TTL abort. Running work stays on the node that started it, so only this
 * node can abort it.
 */
export class RunningTaskTracker {
  /** Handlers running on this node, by task id. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly clock: McpClock,
    /** How often the node renews the lease of each task it runs (a third of `tasks.leaseMs`). */
    private readonly renewEveryMs: number,
    /** Renews the lease of a task this node runs. */
    private readonly renew: (taskId: string) => void,
  ) {}

  /**
   * Registers the handler's abort controller for cancellation; the task's TTL aborts it too. Its
   * lease is renewed now and then every `renewEveryMs` until the handler ends.
   */
  track(record: McpTaskRecord, controller = new AbortController()): AbortController {
    const { taskId } = record;
    this.running.set(taskId, controller);
    const expiry = setTimeout(
      () => controller.abort(new TaskAbortedError('The task outlived its ttlMs', 'timeout')),
      Math.max(0, record.expiresAt - this.clock.now()),
    );
    expiry.unref();
    this.renew(taskId);
    const renewal = setInterval(() => this.renew(taskId), this.renewEveryMs);
    renewal.unref();
    controller.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(expiry);
        clearInterval(renewal);
      },
      { once: true },
    );
    return controller;
  }

  /** Stops tracking the task's handler and aborts it, when it runs here. */
  abort(taskId: string, reason: TaskAbortedError): void {
    const controller = this.running.get(taskId);
    if (!controller) return;
    this.running.delete(taskId);
    controller.abort(reason);
  }

  /**
   * Releases a handler that ended, then aborts its controller: only its own entry, as a replay of
   * the same task may already run under a new controller.
   */
  release(taskId: string, controller: AbortController, reason: TaskAbortedError): void {
    if (this.running.get(taskId) === controller) this.running.delete(taskId);
    controller.abort(reason);
  }

  /** Aborts every handler running on this node (the node shuts down). */
  abortAll(reason: TaskAbortedError): void {
    for (const controller of this.running.values()) controller.abort(reason);
    this.running.clear();
  }
}
