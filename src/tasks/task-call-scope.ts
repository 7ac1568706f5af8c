import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';

/**
 * What a tool handler that may run as a task reaches through {@link McpTaskContext}: the task's id
 * once there is one, and how to start it from inside the handler (`taskCreation: 'handler'`).
 */
export interface TaskCallScope {
  /** The task the handler runs for; undefined while the call is still a plain request. */
  readonly taskId: string | undefined;
  /**
   * Turns the running call into a task: the task is stored, the `tools/call` is answered with it,
   * and the handler goes on in the background. Resolves at once when the call is already a task
   * or cannot become one (the client did not declare the extension).
   */
  start(): Promise<void>;
}

/** The task scope of the tool call whose handler is running, if it may run as a task. */
export const taskCallScope = new AsyncLocalStorage<TaskCallScope>();

/** The scope of a handler that runs for a task from its first line (an immediate task, a replay). */
export function taskScope(taskId: string): TaskCallScope {
  return { taskId, start: async () => {} };
}

/**
 * The scope of a call that becomes a task when its handler says so (`taskCreation: 'handler'`):
 * its first `start()` creates the task with `create`, then hands it to `onStarted` before the
 * handler goes on; one task per call, however often (or concurrently) the handler calls it.
 */
export class StartableTaskScope implements TaskCallScope {
  /** Resolves to the task once the handler started it (never, when it does not). */
  readonly started: Promise<McpTaskRecord>;
  #taskId: string | undefined;
  #starting: Promise<void> | undefined;
  readonly #resolve: (record: McpTaskRecord) => void;

  constructor(
    private readonly create: () => Promise<McpTaskRecord>,
    private readonly onStarted: (record: McpTaskRecord) => void,
  ) {
    let resolve!: (record: McpTaskRecord) => void;
    this.started = new Promise((settle) => (resolve = settle));
    this.#resolve = resolve;
  }

  get taskId(): string | undefined {
    return this.#taskId;
  }

  start(): Promise<void> {
    return (this.#starting ??= this.create().then((record) => {
      this.#taskId = record.taskId;
      this.onStarted(record);
      this.#resolve(record);
    }));
  }
}
