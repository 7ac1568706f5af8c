import { AsyncLocalStorage } from 'node:async_hooks';

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
