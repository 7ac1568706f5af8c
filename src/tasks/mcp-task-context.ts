import { Injectable } from '@nestjs/common';
import { mcpCallScope } from '../mrtr/mcp-call-scope.js';
import { taskCallScope } from './task-call-scope.js';

/**
 * What a tool handler knows about the task it runs in (the `io.modelcontextprotocol/tasks`
 * extension). A singleton backed by the call's async context, so a tool class takes it in its
 * constructor like `ElicitationContext`.
 *
 * ```ts
 * @McpTool({ description: 'Deploys after a confirmation', taskSupport: 'required', taskCreation: 'handler' })
 * async deploy(@McpArgs() args: DeployArgs) {
 *   const ok = await this.elicitation.elicit('Deploy now?', (s) => s.boolean('confirm')); // answered in the request
 *   await this.task.start(); // the client gets the task here; the rest runs in the background
 *   return this.pipeline.run(args, this.progress.signal);
 * }
 * ```
 *
 * @publicApi
 */
@Injectable()
export class McpTaskContext {
  /** The id of the task the running handler belongs to, or undefined outside a task. */
  get taskId(): string | undefined {
    return taskCallScope.getStore()?.taskId;
  }

  /**
   * The stable identity of what the running handler does, to make its own side effects happen
   * once: the task's id in a task (the same in every run of it, on any node: a replay after
   * `tasks/update`, a run from the top after its node died on the task queue), else the flow's id
   * (`ElicitationContext.flowId`: the same in every round of one call's questions). Record your
   * effect under it (your database, Redis `SET key value NX`) or pass it on as a downstream API's
   * idempotency key. With `taskCreation: 'handler'`, read it after `start()`: before, it is the
   * flow's. Throws outside an MCP call.
   */
  get operationId(): string {
    const taskId = this.taskId;
    if (taskId !== undefined) return taskId;
    const scope = mcpCallScope.getStore();
    if (!scope) throw new Error('McpTaskContext.operationId was read outside an MCP tool call.');
    return scope.session.flowId;
  }

  /** Whether the running handler belongs to a task. */
  get isTask(): boolean {
    return this.taskId !== undefined;
  }

  /**
   * Starts the task of a tool declared with `taskCreation: 'handler'`: questions asked before this
   * point were answered synchronously (multi round-trip); from here on the client holds a task and
   * the handler goes on in the background, where its questions move the task to `input_required`.
   * Resolves at once when the call already is a task, or when it cannot be one (the client did not
   * declare the extension on this request, or the tool has no `taskSupport`: the call then simply
   * completes synchronously); throws outside an MCP call. On every
   * replay of a task (after `tasks/update`), the handler reaches this call again and it resolves at once.
   */
  async start(): Promise<void> {
    const scope = taskCallScope.getStore();
    if (scope) return scope.start();
    // A synchronous call (no extension declared, or a tool without taskSupport): nothing to start.
    if (!mcpCallScope.getStore()) throw new Error('McpTaskContext.start() was called outside an MCP tool call.');
  }
}
