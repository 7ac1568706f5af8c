import type { McpTaskStore } from '../task-store/mcp-task.store.js';

/**
 * Where a task's handler runs. An abstract class, so DI can swap it: the default
 * ({@link InProcessTaskExecutor}) runs it on the node that took the call, at once; an integration
 * module (`INTEGRATION_TASK_EXECUTOR`, e.g. `@mocapi/nestjs/bullmq`) puts it on a queue whose jobs
 * any node's worker takes, so a task outlives the node that started it. An application's own
 * `taskExecutor` option wins over both.
 *
 * A queued handler runs from the top on whichever node takes its job, from what the task record
 * keeps (tool, arguments, caller, answers): the same idempotency contract as elicitation replay.
 *
 * @publicApi
 */
export abstract class McpTaskExecutor {
  /**
   * Whether a task whose node died is run again elsewhere (a durable queue). When false, the
   * task's lease decides instead: a `working` task whose lease lapsed fails on the next read.
   */
  abstract readonly recoversLostTasks: boolean;

  /**
   * Takes a task that is ready to run its handler from the top: just created, or with every question
   * answered. `runHere` starts it on this node, in the request that submitted it (what the in-process
   * executor does). Rejects (with an `McpError`, e.g. a full queue) when it cannot take the task: the
   * task then fails and the request that submitted it gets the error.
   */
  abstract submit(task: McpTaskStore.TaskRecord, runHere: () => void): Promise<void>;

  /**
   * The task was cancelled: forget it where it waits. A running handler is aborted on whichever node
   * runs it by the cancellation itself (the task events every node hears).
   */
  abstract cancel(task: McpTaskStore.TaskRecord): Promise<void>;
}

/**
 * The default executor: a task's handler runs on the node that created (or resumed) it, in the
 * background of that request. A node that dies takes its running tasks with it (their leases lapse
 * and they fail).
 */
export class InProcessTaskExecutor extends McpTaskExecutor {
  readonly recoversLostTasks = false;

  async submit(_task: McpTaskStore.TaskRecord, runHere: () => void): Promise<void> {
    runHere();
  }

  async cancel(): Promise<void> {}
}
