import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { RegisteredTool } from '../discovery/registered-tool.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { MrtrCallRunner } from '../calls/mrtr-call.runner.js';
import { McpClock } from '../core/mcp-clock.js';
import { MrtrEngine, type McpCallOutcome } from '../mrtr/mrtr.engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpTaskEvents } from './mcp-task.events.js';
import { isTerminal, type McpTaskRecord } from '../task-store/mcp-task.record.js';
import { McpTaskStore } from '../task-store/mcp-task.store.js';
import { RunningTaskTracker } from './running-task.tracker.js';
import { newTaskRecord, type TaskCall } from './task-call.js';
import { type TaskCallScope, taskCallScope } from './task-call.scope.js';
import { TaskAbortedError } from '../task-store/task-aborted.error.js';
import { TaskEndingRecorder } from './task-ending.recorder.js';
import { TaskProgressRecorder, taskExchange } from './task-exchange.js';
import { type TaskMode, taskModeOf } from './task-mode.js';
import { answeredRecord } from './task-questions.js';
import { checkClientPayload } from '../task-store/task-payload.js';
import { taskReplay } from './task-replay.js';
import { MCP_TASKS_OPTIONS, type ResolvedMcpTasksOptions } from '../task-store/mcp-tasks.options.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';

// The runner's input and mode types, still importable from here as before the split.

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

  constructor(
    private readonly store: McpTaskStore,
    private readonly tools: McpToolRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly mrtr: MrtrEngine,
    private readonly clock: McpClock,
    private readonly events: McpTaskEvents,
    @Inject(MCP_TASKS_OPTIONS) private readonly tasks: ResolvedMcpTasksOptions,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
  ) {}

  /** Records the progress reports of this node's task handlers as their statusMessage. */
  private readonly progress = new TaskProgressRecorder(this.store, this.events, () => this.isoNow(), this.logger);

  /** Records how this node's task handlers ended. */
  private readonly endings = new TaskEndingRecorder(
    this.store,
    this.events,
    this.limits,
    () => this.isoNow(),
    this.logger,
  );

  /** Handlers running on this node, by task id, with their ttl timers. */
  private readonly running = new RunningTaskTracker(this.clock);

  /** Unsubscribes from the task events (set in onModuleInit). */
  private unsubscribe: (() => void) | undefined;

  /**
   * A task cancelled elsewhere (a `tasks/cancel` that another node served, heard through a shared
   * event bus) aborts its handler here, where it runs.
   */
  onModuleInit(): void {
    this.unsubscribe = this.events.on((record) => {
      if (record.status !== 'cancelled') return;
      this.running.abort(record.taskId, new TaskAbortedError('The task was cancelled', 'cancelled'));
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.running.abortAll(new TaskAbortedError('The server is shutting down', 'shutdown'));
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
    return taskModeOf(tool, exchange);
  }

  /** Creates the task and starts the whole handler in the background; resolves to the stored task. */
  async startImmediately(call: TaskCall): Promise<McpTaskRecord> {
    this.checkArguments(call);
    const record = await this.create(call);
    const controller = this.running.track(record);
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
          this.running.track(record, controller);
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
      const answered = answeredRecord(current, responses, this.limits.maxTaskPayloadBytes, this.isoNow());
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
    this.running.abort(record.taskId, new TaskAbortedError('The task was cancelled', 'cancelled'));
    if (updated && cancelled) this.events.emit(updated);
  }

  /**
   * What the task keeps of the request (its arguments, and the client capabilities a resumed run
   * sees) past `limits.maxTaskPayloadBytes` is refused before anything runs (-32602, HTTP 400).
   */
  private checkArguments(call: TaskCall): void {
    const max = this.limits.maxTaskPayloadBytes;
    checkClientPayload('arguments', call.args, max);
    checkClientPayload('client capabilities', call.exchange.clientCapabilities, max);
  }

  /** Stores the task; the store refuses it past the caller's quotas or its own bound. */
  private async create(call: TaskCall): Promise<McpTaskRecord> {
    const { ttlMs, pollIntervalMs } = this.tasks;
    const { maxRunningTasksPerCaller, maxStoredTasksPerCaller } = this.limits;
    const record = newTaskRecord(call, this.clock.now(), ttlMs, pollIntervalMs);
    await this.store.create(record, { maxRunning: maxRunningTasksPerCaller, maxStored: maxStoredTasksPerCaller });
    return record;
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
        (outcome) => this.endings.recordOutcome(taskId, session, outcome),
        (error: unknown) => this.endings.recordError(taskId, error),
      )
      .catch((error: unknown) =>
        this.logger.error(`Could not record the end of task ${taskId}`, error instanceof Error ? error.stack : error),
      )
      .finally(() => this.running.release(taskId, controller, new TaskAbortedError('The task ended')));
  }

  /** Replays the handler of a task whose questions are all answered, in the background. */
  private resume(record: McpTaskRecord, request: McpExchange): void {
    const tool = this.tools.get(record.tool);
    const controller = this.running.track(record);
    const start = async (): Promise<void> => {
      if (!tool || tool.taskSupport === undefined) {
        throw new McpError(-32603, `The tool ${record.tool} of this task is no longer available`);
      }
      const { exchange, session, input } = taskReplay(
        record,
        tool,
        request,
        controller.signal,
        this.progress,
        this.mrtr,
      );
      const scope: TaskCallScope = { taskId: record.taskId, start: async () => {} };
      this.follow(record.taskId, controller, session, this.invoke(tool, input, session, exchange, scope));
    };
    start().catch((error: unknown) => {
      this.running.release(record.taskId, controller, error);
      void this.endings.recordError(record.taskId, error instanceof McpError ? error : McpError.internal());
    });
  }

  private isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
