import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { McpClock } from '../core/mcp-clock.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { MrtrEngine, type McpCallOutcome } from '../mrtr/mrtr-engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpTaskStore } from '../task-store/mcp-task.store.js';
import { MCP_TASKS_OPTIONS, type ResolvedMcpTasksOptions } from '../task-store/mcp-tasks.options.js';
import { McpTaskEvents } from './mcp-task-events.js';
import { PendingEndings } from './pending-endings.js';
import { cancelledReason, endedReason, isShutdown, shutdownReason, whenShutDown } from './task-abort-reasons.js';
import { type QueuedRunEnd, settledRunEnd } from './queued-run-end.js';
import { invokeTaskHandler } from './task-handler-invocation.js';
import { TaskLeaseKeeper } from './task-lease-keeper.js';
import { McpTaskExecutor } from './mcp-task-executor.js';
import { queuedTaskExchange } from './queued-task-exchange.js';
import { RunningTaskTracker } from './running-task-tracker.js';
import { checkTaskCall, newTaskRecord, type TaskCall, type TaskRun } from './task-call.js';
import { StartableTaskScope, taskScope } from './task-call-scope.js';
import { TaskEndingRecorder } from './task-ending-recorder.js';
import { taskExchange, type TaskExchangeCall } from './task-exchange.js';
import { TaskProgressRecorder } from './task-progress-recorder.js';
import { TaskRecordWriter } from './task-record-writer.js';
import { type TaskReplay, taskReplay } from './task-replay.js';
import { answeredRecord, cancelledRecord, queuedRecord } from './task-transitions.js';

/**
 * Runs tools as tasks (the `io.modelcontextprotocol/tasks` extension): creates the task in the
 * {@link McpTaskStore}, hands it to the {@link McpTaskExecutor} (by default: runs the handler in the
 * background on this node; with a queue: on whichever node's worker takes the job, through
 * {@link execute}), and records how it ended. A handler that asks for input parks its task in
 * `input_required` with the pending questions and the replay ledger; `tasks/update` answers resume
 * it by replaying the handler with that ledger (the same replay engine and ledger rules as a multi
 * round-trip retry). Cancellation aborts the handler's signal, also when another node served the
 * `tasks/cancel` and a shared event bus told this one. A node shutting down aborts its running
 * in-process tasks and records their endings before the application closes its connections. How a
 * record changes is in task-transitions.ts.
 */
@Injectable()
export class McpTaskRunner implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('McpTasks');

  constructor(
    private readonly store: McpTaskStore,
    private readonly tools: McpToolRegistry,
    private readonly mrtr: MrtrEngine,
    private readonly clock: McpClock,
    private readonly events: McpTaskEvents,
    @Inject(MCP_TASKS_OPTIONS) private readonly tasks: ResolvedMcpTasksOptions,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly executor: McpTaskExecutor,
    @Inject(MCP_SERVER_OPTIONS) private readonly server: ResolvedMcpServerOptions,
  ) {}

  private readonly writer = new TaskRecordWriter(
    this.store,
    this.events,
    this.clock,
    this.limits.maxStoredTaskBytesPerCaller,
  );
  private readonly progress = new TaskProgressRecorder(this.writer, this.logger);
  private readonly endings = new TaskEndingRecorder(this.writer, this.limits.maxTaskPayloadBytes, this.logger);
  private readonly leases = new TaskLeaseKeeper(
    this.store,
    this.writer,
    this.clock,
    this.tasks.leaseMs,
    this.logger,
    (id) => this.running.abort(id, endedReason()),
  );
  private readonly running = new RunningTaskTracker(this.clock, Math.max(1, Math.floor(this.tasks.leaseMs / 3)), (id) =>
    this.leases.renew(id),
  );
  private unsubscribe: (() => void) | undefined;
  /** Endings being written: shutdown waits for them before the application closes its stores. */
  private readonly pending = new PendingEndings(SHUTDOWN_RECORDING_MS);

  /** A `tasks/cancel` served by another node (heard through a shared bus) aborts the handler here. */
  onModuleInit(): void {
    this.unsubscribe = this.events.on((record) => {
      if (record.status === 'cancelled') this.running.abort(record.taskId, cancelledReason());
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    this.running.abortAll(shutdownReason());
  }

  /** Waits (at most 5 s) for the endings of the handlers just aborted to be written. */
  beforeApplicationShutdown(): Promise<void> {
    return this.pending.drain();
  }

  /** Whether any registered tool can run as a task (the extension is then advertised). */
  get offered(): boolean {
    return this.tools.values().some((tool) => tool.taskSupport !== undefined);
  }

  /** Creates the task and starts the whole handler in the background; resolves to the stored task. */
  async startImmediately(call: TaskCall): Promise<McpTaskRecord> {
    checkTaskCall(call, this.limits.maxTaskPayloadBytes);
    const record = await this.create(call, true);
    await this.submit(record, () => this.launch(record, call.exchange, call));
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
    checkTaskCall(call, this.limits.maxTaskPayloadBytes);
    const controller = new AbortController();
    const scope = new StartableTaskScope(
      () => this.create(call),
      (record) => this.running.track(record, controller),
    );
    const signal = AbortSignal.any([call.exchange.signal, controller.signal]);
    const exchange = taskExchange(call.exchange, signal, scope, this.progress);
    const run = invokeTaskHandler(this.mrtr, call, exchange, scope, this.logger);
    const first = await Promise.race([run.then((outcome) => ({ outcome })), scope.started.then((task) => ({ task }))]);
    if ('task' in first) this.follow(first.task.taskId, controller, call.session, run);
    return first;
  }

  /**
   * Takes `tasks/update` answers for the outstanding questions of a task (unknown and already
   * answered keys are ignored); once every question is answered, replays the handler in the
   * background. `request` is the tasks/update exchange: the replay runs with its transport. Answers
   * that would take the caller's stored tasks past `limits.maxStoredTaskBytesPerCaller` are refused
   * (-32050, HTTP 429, `Retry-After`), the task still waiting for them.
   */
  async answer(record: McpTaskRecord, responses: Record<string, Record<string, unknown>>, request: McpExchange) {
    const max = this.limits.maxTaskPayloadBytes;
    const answered = await this.writer.applyWithinBudget(record.taskId, (current, now) => {
      const next = answeredRecord(current, responses, max, now, this.clock.now() + this.tasks.leaseMs);
      return next && queuedRecord(next, this.executor.recoversLostTasks);
    });
    // Back to `working`: its last question was just answered.
    if (answered?.status === 'working') await this.resume(answered, request);
  }

  /** The task as a client should see it now: one whose node stopped vouching for it is failed first. */
  current(record: McpTaskRecord): Promise<McpTaskRecord> {
    return this.leases.current(record);
  }

  /** Cancels a live task (a finished one stays as it is) and aborts its handler when it runs here. */
  async cancel(record: McpTaskRecord): Promise<void> {
    await this.writer.apply(record.taskId, cancelledRecord);
    this.running.abort(record.taskId, cancelledReason());
    await this.executor.cancel(record);
  }

  /** Fails (-32603, `message`) a live task its executor gave up on; never rejects (store errors are logged). */
  async abandon(taskId: string, message: string): Promise<void> {
    await this.endings.fail(taskId, new McpError(-32603, message));
  }

  /**
   * Runs the handler of a stored `working` task from the top, on this node: what a queue's worker
   * calls for a job (the task id). It replays with the answers the record keeps, in an exchange of
   * its own (no request: `transport.kind` is `queue`), and records how it ended, except when
   * `interrupt` aborts first (the worker is closing, or lost the job's lock) or the node shuts down:
   * the handler is then aborted (with `interrupt`'s reason when that is a `'shutdown'`
   * `TaskAbortedError`), its ending dropped, and the task stays `working` for the queue to hand to
   * another node. With `retryOnThrow`, a handler that throws leaves the task `working` too (the
   * queue runs it again later); so does an ending the store did not take (`unrecorded`). Resolves
   * to what became of the run.
   */
  async execute(taskId: string, interrupt: AbortSignal, retryOnThrow = false): Promise<QueuedRunEnd> {
    const record = await this.store.get(taskId);
    if (!record || record.status !== 'working') return 'skipped';
    const replay = await this.replayOf(record);
    if (!replay) return 'ended';
    const controller = this.running.track(record);
    // The interrupt's own reason when it is a hand-back one (a queue's lost lock says so), else shutdown.
    const stop = () => controller.abort(isShutdown(interrupt.reason) ? interrupt.reason : shutdownReason());
    interrupt.addEventListener('abort', stop, { once: true });
    if (interrupt.aborted) stop();
    const interrupted = whenShutDown(controller.signal).then(() => 'interrupted' as const);
    const scope = taskScope(taskId);
    const exchange = taskExchange(
      queuedTaskExchange(record, controller.signal),
      controller.signal,
      scope,
      this.progress,
      replay.call,
    );
    const run = invokeTaskHandler(this.mrtr, replay, exchange, scope, this.logger);
    let threw = false;
    // Registered before the ending's own reaction, so it is known when the ending is decided.
    run.catch(() => (threw = true));
    const keep = () => !isShutdown(controller.signal.reason) && !(retryOnThrow && threw);
    const finished = this.pending.track(this.endings.settle(taskId, replay.session, run, keep)).then(async () => {
      this.running.release(taskId, controller, endedReason());
      if (retryOnThrow && threw) return 'retry' as const;
      return settledRunEnd(await this.store.get(taskId).catch(() => null));
    });
    try {
      return await Promise.race([finished, interrupted]);
    } finally {
      interrupt.removeEventListener('abort', stop);
    }
  }

  /**
   * Stores the task; the store refuses it past the caller's quotas (its byte budget included) or
   * its own bound. `submitted`: it goes to the executor at once (it is not a task its handler starts
   * while running here).
   */
  private async create(call: TaskCall, submitted = false): Promise<McpTaskRecord> {
    const { maxRunningTasksPerCaller: maxRunning, maxStoredTasksPerCaller: maxStored } = this.limits;
    const maxStoredBytes = this.limits.maxStoredTaskBytesPerCaller;
    const created = newTaskRecord(call, this.server.path, randomUUID(), this.clock.now(), this.tasks);
    // A task created to be submitted (not one a handler starts while it goes on here) is marked now.
    const record = submitted ? queuedRecord(created, this.executor.recoversLostTasks) : created;
    await this.store.create(record, { maxRunning, maxStored, maxStoredBytes });
    return record;
  }

  /**
   * Records how the background handler ended, unless the task was cancelled (or expired) meanwhile,
   * then releases its controller (only its own: a replay may already run under a new one).
   */
  private follow(taskId: string, controller: AbortController, session: ReplaySession, run: Promise<McpCallOutcome>) {
    void this.pending
      .track(this.endings.settle(taskId, session, run))
      .finally(() => this.running.release(taskId, controller, endedReason()));
  }

  /** Hands a task to the executor; a task it refuses fails, and the request gets the refusal. */
  private async submit(record: McpTaskRecord, runHere: () => void): Promise<void> {
    try {
      await this.executor.submit(record, runHere);
    } catch (error) {
      const refusal = error instanceof McpError ? error : McpError.internal();
      await this.endings.fail(record.taskId, refusal);
      throw refusal;
    }
  }

  /**
   * Runs the handler of a task that exists from its first line in the background: `request` is the
   * exchange it runs in, `call` what it runs when that is not the request's own (a replay).
   */
  private launch(record: McpTaskRecord, request: McpExchange, run: TaskRun, call?: TaskExchangeCall): void {
    const controller = this.running.track(record);
    const scope = taskScope(record.taskId);
    const exchange = taskExchange(request, controller.signal, scope, this.progress, call);
    this.follow(
      record.taskId,
      controller,
      run.session,
      invokeTaskHandler(this.mrtr, run, exchange, scope, this.logger),
    );
  }

  /** Hands a task whose questions are all answered to the executor, which replays its handler. */
  private async resume(record: McpTaskRecord, request: McpExchange): Promise<void> {
    await this.submit(record, () => void this.replayHere(record, request));
  }

  /** Replays a resumed task's handler on this node, in the background of `request`. */
  private async replayHere(record: McpTaskRecord, request: McpExchange): Promise<void> {
    const replay = await this.replayOf(record);
    if (replay) this.launch(record, request, replay, replay.call);
  }

  /** What a task's replay runs with; a task whose tool or arguments no longer serve fails instead. */
  private async replayOf(record: McpTaskRecord): Promise<TaskReplay | undefined> {
    try {
      return await taskReplay(record, this.tools.get(record.tool), this.mrtr);
    } catch (error) {
      await this.endings.fail(record.taskId, error instanceof McpError ? error : McpError.internal());
      return undefined;
    }
  }
}

/** How long shutdown waits for the endings of aborted handlers to be written. */
const SHUTDOWN_RECORDING_MS = 5000;
