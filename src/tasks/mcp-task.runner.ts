import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';
import type { RegisteredTool } from '../discovery/registered-tool.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { MrtrCallRunner } from '../dispatch/mrtr-call.runner.js';
import { toCallToolResult, toolErrorResult } from '../dispatch/tool-result.normalizer.js';
import { McpClock } from '../mrtr/mcp-clock.js';
import { MrtrEngine, type McpCallOutcome } from '../mrtr/mrtr.engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import { isModernProtocolVersion } from '../protocol/protocol-version.js';
import { McpTaskEvents } from './mcp-task.events.js';
import { isTerminal, type McpTaskRecord } from './mcp-task.record.js';
import { McpTaskStore } from './mcp-task.store.js';
import { type TaskCallScope, taskCallScope } from './task-call.scope.js';
import { declaresTasks, REQUIRED_TASKS_CAPABILITY } from './task-support.js';
import { TaskAbortedError } from './task-aborted.error.js';
import { callerOf } from './task-caller.js';
import { TaskProgressRecorder, taskExchange } from './task-exchange.js';
import { answeredRecord, askedRecord } from './task-questions.js';
import { logText } from '../telemetry/log-text.js';
import { boundedEnding, checkClientPayload, type TaskEnding } from './task-payload.js';

/** How one tools/call runs: synchronously, as a task from the start, or as a task once the handler says so. */
export type TaskMode = 'sync' | 'immediate' | 'handler';

/** A task-eligible call, as the tools method hands it over. */
export interface TaskCall {
  readonly tool: RegisteredTool;
  readonly exchange: McpExchange;
  readonly args: Record<string, unknown>;
  /** The validated (DTO-transformed) input the handler receives. */
  readonly input: unknown;
  readonly session: ReplaySession;
  readonly principal: string | null;
}

/**
 * Runs tools as tasks (the `io.modelcontextprotocol/tasks` extension): creates the task in the
 * {@link McpTaskStore}, runs the handler in the background on this node, and records how it ended.
 * A handler that asks for input parks its task in `input_required` with the pending questions and
 * the replay ledger; `tasks/update` answers resume it by replaying the handler with that ledger
 * (the same replay engine and ledger rules as a multi round-trip retry). Cancellation aborts the
 * handler's signal, also when another node served the `tasks/cancel` and a shared event bus told
 * this one. Running work stays on the node that started it (there is no queue): a node shutting
 * down aborts its running tasks.
 */
@Injectable()
export class McpTaskRunner implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  /** Handlers running on this node, by task id. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly store: McpTaskStore,
    private readonly tools: McpToolRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly mrtr: MrtrEngine,
    private readonly clock: McpClock,
    private readonly events: McpTaskEvents,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  /** Records the progress reports of this node's task handlers as their statusMessage. */
  private readonly progress = new TaskProgressRecorder(this.store, this.events, () => this.isoNow(), this.logger);

  /** Unsubscribes from the task events (set in onModuleInit). */
  private unsubscribe: (() => void) | undefined;

  /**
   * A task cancelled elsewhere (a `tasks/cancel` that another node served, heard through a shared
   * event bus) aborts its handler here, where it runs.
   */
  onModuleInit(): void {
    this.unsubscribe = this.events.on((record) => {
      if (record.status !== 'cancelled') return;
      const controller = this.running.get(record.taskId);
      if (!controller) return;
      this.running.delete(record.taskId);
      controller.abort(new TaskAbortedError('The task was cancelled', 'cancelled'));
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    for (const controller of this.running.values())
      controller.abort(new TaskAbortedError('The server is shutting down', 'shutdown'));
    this.running.clear();
  }

  /** Whether any registered tool can run as a task (the extension is then advertised). */
  get offered(): boolean {
    return this.tools.values().some((tool) => tool.taskSupport !== undefined);
  }

  /**
   * How a call runs. A tool that requires a task, called by a client that did not declare the
   * extension on this request (or by a 2025-era client), is refused with -32021.
   */
  modeOf(tool: RegisteredTool, exchange: McpExchange): TaskMode {
    if (tool.taskSupport === undefined) return 'sync';
    const declared = isModernProtocolVersion(exchange.protocolVersion) && declaresTasks(exchange.clientCapabilities);
    if (!declared) {
      if (tool.taskSupport === 'required') throw McpError.missingCapability({ ...REQUIRED_TASKS_CAPABILITY });
      return 'sync';
    }
    return tool.taskCreation === 'handler' ? 'handler' : 'immediate';
  }

  /** Creates the task and starts the whole handler in the background; resolves to the stored task. */
  async startImmediately(call: TaskCall): Promise<McpTaskRecord> {
    this.checkArguments(call);
    const record = await this.create(call);
    const controller = this.track(record);
    const exchange = taskExchange(call.exchange, controller.signal, () => record.taskId, this.progress);
    const scope: TaskCallScope = { taskId: record.taskId, start: async () => {} };
    this.follow(
      record.taskId,
      controller,
      call.session,
      this.invoke(call.tool, call.input, call.session, exchange, scope),
    );
    return record;
  }

  /**
   * Runs the handler in the request until it calls `McpTaskContext.start()`: resolves to its
   * outcome when it finishes (or asks a question) first, or to the task once started, the handler
   * then going on in the background.
   */
  async runUntilStarted(
    call: TaskCall,
  ): Promise<{ readonly outcome: McpCallOutcome } | { readonly task: McpTaskRecord }> {
    this.checkArguments(call);
    const controller = new AbortController();
    let taskId: string | undefined;
    // One task per call, however often (or concurrently) the handler calls start().
    let starting: Promise<void> | undefined;
    let started!: (record: McpTaskRecord) => void;
    const whenStarted = new Promise<McpTaskRecord>((resolve) => (started = resolve));
    const request = call.exchange;
    const signal = AbortSignal.any([request.signal, controller.signal]);
    const exchange = taskExchange(request, signal, () => taskId, this.progress);
    const scope: TaskCallScope = {
      get taskId() {
        return taskId;
      },
      start: () =>
        (starting ??= this.create(call).then((record) => {
          taskId = record.taskId;
          this.track(record, controller);
          started(record);
        })),
    };
    const run = this.invoke(call.tool, call.input, call.session, exchange, scope);
    const first = await Promise.race([run.then((outcome) => ({ outcome })), whenStarted.then((task) => ({ task }))]);
    if ('task' in first) this.follow(first.task.taskId, controller, call.session, run);
    return first;
  }

  /**
   * Takes `tasks/update` answers for the outstanding questions of a task (unknown and already
   * answered keys are ignored); once every question is answered, replays the handler in the
   * background. `request` is the tasks/update exchange: the replay runs with its transport.
   */
  async answer(record: McpTaskRecord, responses: Record<string, Record<string, unknown>>, request: McpExchange) {
    let resumes = false;
    const updated = await this.store.update(record.taskId, (current) => {
      const answered = answeredRecord(current, responses, this.options.limits.maxTaskPayloadBytes, this.isoNow());
      resumes = answered?.resumes ?? false;
      return answered?.next;
    });
    if (updated) this.events.emit(updated);
    if (resumes && updated) this.resume(updated, request);
  }

  /** Cancels a live task (a finished one stays as it is) and aborts its handler when it runs here. */
  async cancel(record: McpTaskRecord): Promise<void> {
    let cancelled = false;
    const updated = await this.store.update(record.taskId, (current) => {
      cancelled = !isTerminal(current.status);
      return cancelled
        ? {
            ...current,
            status: 'cancelled',
            statusMessage: 'Cancelled by the client',
            lastUpdatedAt: this.isoNow(),
            inputRequests: undefined,
            inputKeys: undefined,
            answers: undefined,
          }
        : undefined;
    });
    const controller = this.running.get(record.taskId);
    this.running.delete(record.taskId);
    controller?.abort(new TaskAbortedError('The task was cancelled', 'cancelled'));
    if (updated && cancelled) this.events.emit(updated);
  }

  /**
   * What the task keeps of the request (its arguments, and the client capabilities a resumed run
   * sees) past `limits.maxTaskPayloadBytes` is refused before anything runs (-32602, HTTP 400).
   */
  private checkArguments(call: TaskCall): void {
    const max = this.options.limits.maxTaskPayloadBytes;
    checkClientPayload('arguments', call.args, max);
    checkClientPayload('client capabilities', call.exchange.clientCapabilities, max);
  }

  /** Stores the task; the store refuses it past the caller's quotas or its own bound. */
  private async create(call: TaskCall): Promise<McpTaskRecord> {
    const now = this.clock.now();
    const { ttlMs, pollIntervalMs } = this.options.tasks;
    const { maxRunningTasksPerCaller, maxStoredTasksPerCaller } = this.options.limits;
    const at = new Date(now).toISOString();
    const record: McpTaskRecord = {
      taskId: randomUUID(),
      owner: call.principal,
      caller: callerOf(call.exchange, call.principal),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs,
      pollIntervalMs,
      expiresAt: now + ttlMs,
      tool: call.tool.name,
      arguments: call.args,
      protocolVersion: call.exchange.protocolVersion,
      clientCapabilities: { ...call.exchange.clientCapabilities },
    };
    await this.store.create(record, { maxRunning: maxRunningTasksPerCaller, maxStored: maxStoredTasksPerCaller });
    return record;
  }

  /** Registers the handler's abort controller for cancellation; the task's TTL aborts it too. */
  private track(record: McpTaskRecord, controller = new AbortController()): AbortController {
    this.running.set(record.taskId, controller);
    const expiry = setTimeout(
      () => controller.abort(new TaskAbortedError('The task outlived its ttlMs', 'timeout')),
      Math.max(0, record.expiresAt - this.clock.now()),
    );
    expiry.unref();
    controller.signal.addEventListener('abort', () => clearTimeout(expiry), { once: true });
    return controller;
  }

  private async invoke(
    tool: RegisteredTool,
    input: unknown,
    session: ReplaySession,
    exchange: McpExchange,
    scope: TaskCallScope,
  ): Promise<McpCallOutcome> {
    return this.calls.invoke(session, exchange, () =>
      taskCallScope.run(scope, () => tool.handler.invoke(input, exchange)),
    );
  }

  /**
   * Records how the background handler ended, unless the task was cancelled (or expired) meanwhile,
   * then releases its controller (only its own: a replay may already run under a new one).
   */
  private follow(taskId: string, controller: AbortController, session: ReplaySession, run: Promise<McpCallOutcome>) {
    run
      .then(
        (outcome) => this.settle(taskId, session, outcome),
        (error: unknown) => this.settleError(taskId, error),
      )
      .catch((error: unknown) =>
        this.logger.error(`Could not record the end of task ${taskId}`, error instanceof Error ? error.stack : error),
      )
      .finally(() => {
        if (this.running.get(taskId) === controller) this.running.delete(taskId);
        controller.abort(new TaskAbortedError('The task ended'));
      });
  }

  private async settle(taskId: string, session: ReplaySession, outcome: McpCallOutcome): Promise<void> {
    if (outcome.kind === 'complete') {
      await this.end(taskId, { status: 'completed', result: { ...toCallToolResult(outcome.value) } });
      return;
    }
    const signal = session.lastInputRequired!;
    const replay = session.nextPayload(signal);
    await this.finish(taskId, (record) => askedRecord(record, signal.inputRequests, replay));
  }

  /** A protocol error fails the task; anything else the tool threw is a tool error (completed, isError). */
  private async settleError(taskId: string, error: unknown): Promise<void> {
    if (error instanceof McpError) {
      await this.end(taskId, {
        status: 'failed',
        statusMessage: error.message,
        error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) },
      });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    await this.end(taskId, { status: 'completed', result: { ...toolErrorResult(message || 'Tool failed') } });
  }

  /** Records how the handler ended, or the failure that replaces an ending the store must not keep. */
  private async end(taskId: string, ending: TaskEnding): Promise<void> {
    const bounded = boundedEnding(ending, this.options.limits.maxTaskPayloadBytes);
    if (bounded.refused !== undefined) this.logger.warn(`Task ${taskId} failed: ${logText(bounded.refused)}`);
    await this.finish(taskId, (record) => ({ ...record, ...bounded.ending }));
  }

  /** Moves a still-live task to its next state; a cancelled or expired task keeps what it has. */
  private async finish(taskId: string, change: (record: McpTaskRecord) => McpTaskRecord): Promise<void> {
    let changed = false;
    const updated = await this.store.update(taskId, (record) => {
      changed = !isTerminal(record.status);
      return changed ? { ...change(record), lastUpdatedAt: this.isoNow() } : undefined;
    });
    if (updated && changed) this.events.emit(updated);
  }

  /** Replays the handler of a task whose questions are all answered, in the background. */
  private resume(record: McpTaskRecord, request: McpExchange): void {
    const tool = this.tools.get(record.tool);
    const controller = this.track(record);
    const start = async (): Promise<void> => {
      if (!tool || tool.taskSupport === undefined) {
        throw new McpError(-32603, `The tool ${record.tool} of this task is no longer available`);
      }
      const exchange = taskExchange(
        {
          ...request,
          method: McpMethod.ToolsCall,
          params: { name: record.tool, arguments: record.arguments },
          protocolVersion: record.protocolVersion,
          clientCapabilities: record.clientCapabilities,
        },
        controller.signal,
        () => record.taskId,
        this.progress,
      );
      const session = this.mrtr.resume(
        {
          method: McpMethod.ToolsCall,
          target: record.tool,
          arguments: record.arguments,
          inputResponses: record.answers ?? {},
          clientCapabilities: record.clientCapabilities,
          principal: record.owner,
        },
        record.replay!,
      );
      // The stored arguments are shared and frozen: a handler gets its own copy, as on its first run.
      const input = tool.validate ? validatedInput(tool, record.arguments) : structuredClone(record.arguments);
      const scope: TaskCallScope = { taskId: record.taskId, start: async () => {} };
      this.follow(record.taskId, controller, session, this.invoke(tool, input, session, exchange, scope));
    };
    start().catch((error: unknown) => {
      if (this.running.get(record.taskId) === controller) this.running.delete(record.taskId);
      controller.abort(error);
      void this.settleError(record.taskId, error instanceof McpError ? error : McpError.internal());
    });
  }

  private isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

/** The DTO-validated input of a resumed task; arguments that no longer validate fail the task. */
function validatedInput(tool: RegisteredTool, args: Record<string, unknown>): unknown {
  const validation = tool.validate!(args);
  if (!validation.ok) throw McpError.invalidParams(`Invalid arguments for tool ${tool.name}`);
  return validation.value;
}
