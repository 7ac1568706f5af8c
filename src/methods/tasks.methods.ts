import { Inject, Injectable, Optional } from '@nestjs/common';
import type { McpMethodGroup, MethodHandler } from '../calls/method-handler.js';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import { callerOf, isTaskOf } from '../task-store/task-caller.js';
import { parseInputResponses } from '../mrtr/input-responses-parser.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { TaskMethod } from '../protocol/mcp-methods.js';
import { isModernProtocolVersion } from '../protocol/protocol-version.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import { detailedTask, type McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpTaskRunner } from '../tasks/mcp-task-runner.js';
import { McpTaskStore } from '../task-store/mcp-task.store.js';
import { declaresTasks, REQUIRED_TASKS_CAPABILITY, TASKS_EXTENSION } from '../protocol/task-support.js';
import { TaskMethodsLimiter } from '../task-store/task-methods-limiter.js';

/**
 * tasks/get, tasks/update and tasks/cancel (SEP-2663), advertised as
 * `capabilities.extensions["io.modelcontextprotocol/tasks"]` once a tool supports tasks. Only
 * requests that declare the extension are served (else -32021), and only the caller that created a
 * task (its principal, else its client address), on the server it was created on, may see, answer
 * or cancel it: to anyone else it does not exist (-32602). The
 * removed v1 methods tasks/result and tasks/list are unknown (-32601). With a rate limiter that
 * provides {@link TaskMethodsLimiter} (`McpThrottlerModule`), each call is counted first.
 */
@Injectable()
export class TasksMethods implements McpMethodGroup {
  constructor(
    private readonly store: McpTaskStore,
    private readonly runner: McpTaskRunner,
    private readonly principals: McpPrincipalSource,
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
    @Optional() private readonly limiter?: TaskMethodsLimiter,
  ) {}

  enabled(): boolean {
    return this.runner.offered;
  }

  contribute(capabilities: ServerCapabilities): void {
    capabilities.extensions = { ...capabilities.extensions, [TASKS_EXTENSION]: {} };
  }

  readonly methods: Record<string, MethodHandler> = {
    [TaskMethod.Get]: async (exchange) => detailedTask(await this.owned(exchange)),
    [TaskMethod.Update]: async (exchange) => {
      const record = await this.owned(exchange);
      const responses = parseInputResponses(exchange.params['inputResponses']);
      if (responses === undefined) throw McpError.invalidParams('params.inputResponses must be an object');
      await this.runner.answer(record, responses, exchange);
      return {};
    },
    [TaskMethod.Cancel]: async (exchange) => {
      await this.runner.cancel(await this.owned(exchange));
      return {};
    },
  };

  /** The task the request names, if its caller created it; checks the extension was declared first. */
  private async owned(exchange: McpExchange): Promise<McpTaskRecord> {
    // The 2025-era leg reaches every dispatcher method: these belong to the 2026-07-28 extension.
    if (!isModernProtocolVersion(exchange.protocolVersion)) throw McpError.methodNotFound(exchange.method);
    if (!declaresTasks(exchange.clientCapabilities)) throw McpError.missingCapability({ ...REQUIRED_TASKS_CAPABILITY });
    const taskId = exchange.params['taskId'];
    if (typeof taskId !== 'string' || taskId === '') throw McpError.invalidParams('params.taskId must be a string');
    const record = await this.store.get(taskId);
    const principal = this.principals.resolve(exchange);
    if (!record || !isTaskOf(record, this.options.path, callerOf(exchange, principal), principal)) {
      throw McpError.invalidParams('Task not found (unknown, expired, or not yours)', { taskId });
    }
    // Counted per task once it is known to be the caller's: an unknown id costs no counter.
    if (this.limiter) await this.limiter.check(exchange);
    return this.runner.current(record);
  }
}
