import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { RegisteredTool } from '../discovery/registered-tool.js';
import { clientRendersApps, MCP_UI_EXTENSION } from '../discovery/mcp-apps-support.js';
import { McpServerExtensions } from '../discovery/mcp-server-extensions.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { MrtrCallRunner } from '../calls/mrtr-call-runner.js';
import { type McpCallOutcome, MrtrEngine } from '../mrtr/mrtr-engine.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import type { McpInbound } from '../calls/mcp-inbound.js';
import type { McpMethodGroup, MethodHandler, MethodResult } from '../calls/method-handler.js';
import { DEFINITIONS_VIEW, ListPager, type ListView } from '../calls/list-pager.js';
import { ExactlyOnceCompletion } from '../calls/exactly-once-completion.js';
import { idempotencyKeyOf, IdempotentToolCall } from '../calls/idempotent-tool-call.js';
import { toCallToolResult, toolErrorResult } from '../calls/tool-result-normalizer.js';
import { conformingToolResult } from '../calls/tool-output-conformance.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { exchangeWithSignal } from '../calls/request-exchange.js';
import { McpTaskRunner } from '../tasks/mcp-task-runner.js';
import type { TaskCall } from '../tasks/task-call.js';
import { createTaskResult } from '../task-store/mcp-task-record.js';
import { McpCallAbortedError } from '../protocol/mcp-call-aborted.error.js';
import { logText } from '../protocol/log-text.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import type { DtoValidationResult } from '../schema/dto-validator.js';
import { taskModeOf } from '../tasks/task-mode.js';

/** What a call that outlived its timeout resolves to. */
const TIMED_OUT = Symbol('timed out');

/** What a client that does not render MCP Apps is shown of each tool. */
const WITHOUT_UI_VIEW: ListView<RegisteredTool> = {
  name: 'without-ui',
  show: (tool) => (tool.withoutUi === undefined ? tool.definition : (tool.withoutUi ?? undefined)),
};

/** tools/list and tools/call. */
@Injectable()
export class ToolsMethods implements McpMethodGroup, OnApplicationBootstrap {
  private readonly logger = new Logger('McpTools');

  constructor(
    private readonly tools: McpToolRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly mrtr: MrtrEngine,
    private readonly lists: ListPager,
    private readonly once: ExactlyOnceCompletion,
    private readonly idempotent: IdempotentToolCall,
    private readonly tasks: McpTaskRunner,
    private readonly extensions: McpServerExtensions,
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
  ) {}

  /**
   * A tool linked to an MCP App on a server that does not declare the extension would send hosts a
   * link nobody checked (McpAppsModule checks the links it serves): most likely the module was not
   * imported, so startup fails rather than the view silently not showing.
   */
  onApplicationBootstrap(): void {
    if (MCP_UI_EXTENSION in this.extensions.all()) return;
    const linked = this.tools.values().find((tool) => tool.ui !== undefined);
    if (!linked) return;
    throw new Error(
      `MCP tool "${linked.name}" (${linked.source}) is linked to the MCP App ${linked.ui!.resourceUri}, but the server does not declare the MCP Apps extension (${MCP_UI_EXTENSION}): add McpAppsModule.forRoot({}) (from @mocapi/nestjs/apps) to the imports.`,
    );
  }

  enabled(): boolean {
    return this.tools.size > 0;
  }

  contribute(capabilities: ServerCapabilities): void {
    // SEP-3182: a tools/call with an idempotencyKey runs once per key (see IdempotentToolCall).
    capabilities.tools = { listChanged: true, idempotency: {} };
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.ToolsList]: (exchange) => this.listTools(exchange),
    // The method itself (bound), not a closure around it: one frame less on every call.
    [McpMethod.ToolsCall]: this.callTool.bind(this),
  };
  readonly cacheable: readonly string[] = [McpMethod.ToolsList];

  private listTools(exchange: McpExchange): MethodResult {
    // The extension's graceful degradation: a client that does not render apps gets the same tools
    // without UI metadata, and not the tools only an app calls.
    const view = !this.anyLinkedToApps() || clientRendersApps(exchange) ? DEFINITIONS_VIEW : WITHOUT_UI_VIEW;
    return this.lists.page(exchange, 'tools', 'tool', this.tools, view);
  }

  private linkedSnapshot: readonly RegisteredTool[] | undefined;
  private linked = false;

  /** Whether any tool is linked to an MCP App, worked out once per change of the registry. */
  private anyLinkedToApps(): boolean {
    const tools = this.tools.values();
    if (tools !== this.linkedSnapshot) {
      this.linkedSnapshot = tools;
      this.linked = tools.some((tool) => tool.ui !== undefined);
    }
    return this.linked;
  }

  /**
   * Runs the call with a deadline: past it, the exchange's signal aborts (the handler should stop)
   * and the call answers at once, whatever the handler still does.
   */
  private async invokeWithin(
    ms: number,
    exchange: McpExchange,
    run: (exchange: McpExchange) => Promise<McpCallOutcome>,
  ): Promise<McpCallOutcome | typeof TIMED_OUT> {
    const deadline = new AbortController();
    const timed = exchangeWithSignal(exchange, AbortSignal.any([exchange.signal, deadline.signal]));
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => {
        deadline.abort(new McpCallAbortedError(`The tool call exceeded its ${ms} ms timeout`, 'timeout'));
        resolve(TIMED_OUT);
      }, ms);
    });
    try {
      return await Promise.race([run(timed), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Validation must not turn odd input into an internal error: whatever throws is invalid arguments. */
  private async validated(tool: RegisteredTool, args: Record<string, unknown>): Promise<DtoValidationResult> {
    try {
      return tool.validateAsync ? await tool.validateAsync(args) : tool.validate!(args);
    } catch (error) {
      this.logger.debug(
        `Arguments of ${tool.name} could not be validated: ${logText(error instanceof Error ? error.message : error)}`,
      );
      return {
        ok: false,
        violations: ['the arguments could not be read; send plain JSON values of the documented shape'],
      };
    }
  }

  /**
   * A finished call's answer: the question it asks, or its result held to the output schema of
   * `tool` (nothing more than the normalizing for a tool without one, or without `tool`: a task's
   * run, which the task runner checked).
   */
  private finished(outcome: McpCallOutcome, tool?: RegisteredTool): MethodResult | Promise<MethodResult> {
    if (outcome.kind === 'input_required') return outcome.round;
    return tool?.checkOutput ? conformingToolResult(tool, outcome.value, this.logger) : toCallToolResult(outcome.value);
  }

  /**
   * `keyed`: the call's idempotencyKey (if any) is already claimed. A call that continues a
   * multi round-trip flow (it carries a requestState) is outside SEP-3182: its key is not used.
   */
  private async callTool(exchange: McpExchange, inbound: McpInbound, keyed = false): Promise<MethodResult> {
    const { params } = exchange;
    const name = params['name'];
    if (typeof name !== 'string') throw McpError.invalidParams('params.name must be a string');
    const tool = this.tools.get(name);
    // A tool only an app calls is not listed for a client without apps: it is not callable there
    // either (it may skip what the model-facing tools ask, as the sample's book_seating does).
    if (!tool || (tool.withoutUi === null && !clientRendersApps(exchange))) {
      throw McpError.invalidParams(`Unknown tool: ${name}`, { name });
    }
    this.lists.assertAllowed(exchange, 'tool', tool);
    if (!keyed) {
      // After the access check, so a replayed answer is only given to a caller still allowed the tool.
      const key = idempotencyKeyOf(params);
      if (key !== undefined && params['requestState'] === undefined) {
        return await this.idempotent.run(exchange, key, () => this.callTool(exchange, inbound, true));
      }
    }
    const args = params['arguments'] ?? {};
    if (!isJsonObject(args)) throw McpError.invalidParams('params.arguments must be an object');
    if (tool.headerParams.length > 0) inbound.verifyToolHeaders?.(tool.headerParams, args);
    const mode = taskModeOf(tool, exchange);

    const session = this.calls.begin(exchange, name, args, inbound.trace);
    let input: unknown = args;
    if (tool.validate) {
      const validation = await this.validated(tool, args);
      if (!validation.ok) {
        return toolErrorResult(`Invalid arguments for tool ${name}:\n- ${validation.violations.join('\n- ')}`);
      }
      input = validation.value;
    }
    if (mode !== 'sync') {
      const task = { tool, exchange, args, input, session, principal: session.binding.principal };
      if (mode === 'immediate') return await this.startTask(task);
      if (this.once.guards(session, tool.exactlyOnce))
        return await this.once.run(session, () => this.runTaskHandler(task));
      return await this.runTaskHandler(task);
    }
    if (this.once.guards(session, tool.exactlyOnce)) {
      return await this.once.run(session, () => this.runTool(tool, input, session, exchange));
    }
    return await this.runTool(tool, input, session, exchange);
  }

  private async startTask(task: TaskCall): Promise<MethodResult> {
    return createTaskResult(await this.tasks.startImmediately(task));
  }

  /** A task whose handler asks its questions before the task starts (`taskCreation: 'handler'`). */
  private async runTaskHandler(task: TaskCall): Promise<MethodResult> {
    try {
      const first = await this.tasks.runUntilStarted(task);
      if ('task' in first) return createTaskResult(first.task);
      return this.finished(first.outcome);
    } catch (error) {
      return this.toolFailed(error);
    }
  }

  private async runTool(
    tool: RegisteredTool,
    input: unknown,
    session: ReplaySession,
    exchange: McpExchange,
  ): Promise<MethodResult> {
    const timeoutMs = tool.timeoutMs ?? this.options.toolTimeoutMs;
    const { invoke } = tool.handler;
    try {
      const outcome = timeoutMs
        ? await this.invokeWithin(timeoutMs, exchange, (timed) => this.mrtr.run(session, timed, invoke, input, timed))
        : await this.mrtr.run(session, exchange, invoke, input, exchange);
      if (outcome === TIMED_OUT)
        return toolErrorResult(`The tool ${tool.name} did not finish within ${timeoutMs} ms and was stopped.`);
      return this.finished(outcome, tool);
    } catch (error) {
      return this.toolFailed(error);
    }
  }

  /** A protocol error is answered as one; anything else the tool threw is its error result. */
  private toolFailed(error: unknown): MethodResult {
    if (error instanceof McpError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return toolErrorResult(message || 'Tool failed');
  }
}
