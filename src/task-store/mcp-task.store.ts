import type { InputRequest } from '../protocol/wire-types.js';
import type { RequestStatePayload } from '../mrtr/request-state-payload.js';

/**
 * Where tasks live between requests. An abstract class, so DI can swap it: the default keeps them
 * in this process's memory (bounded, expiring); `McpModule.forRoot({ taskStore })` or an
 * integration module (`INTEGRATION_TASK_STORE`, e.g. a shared Redis store) replaces it. Records are
 * plain JSON ({@link McpTaskStore.TaskRecord}); every method is async so a networked store fits.
 *
 * A store must make a created task readable at once (`get` after `create` resolves finds it: the
 * spec forbids answering with a task `tasks/get` cannot see yet), and may forget a task after its
 * `expiresAt`.
 *
 * Records are immutable values. A store may return the very object it holds (the in-memory store
 * does: a read then costs nothing, however large the task's arguments), so callers never mutate
 * what `get` or `update` gives them, and `change` builds a new record instead of editing its input.
 *
 * @publicApi
 */
export abstract class McpTaskStore {
  /**
   * Stores a new task. Rejects when the store cannot take more (the call then fails, nothing runs).
   * With a `quota`, it also rejects, with `McpTaskQuotaExceededException`, when the record's
   * `caller` already has `quota.maxRunning` live tasks or `quota.maxStored` stored ones, or when
   * the record would take the caller's stored bytes past `quota.maxStoredBytes`; the check and the
   * write must be atomic (concurrent creates of one caller never pass the bound together).
   * `McpTaskQuotaExceededException.check` decides from the caller's counts. A store that ignores
   * `quota` enforces no per-caller bound.
   */
  abstract create(record: McpTaskStore.TaskRecord, quota?: McpTaskStore.Quota): Promise<void>;

  /** The task, or undefined when unknown or expired. Do not mutate it. */
  abstract get(taskId: string): Promise<McpTaskStore.TaskRecord | undefined>;

  /**
   * Atomically reads, changes and writes one task: `change` gets the current record (which it must
   * not mutate) and returns the new one (`{ ...record, status }`), or undefined to leave it as it
   * is. Resolves to the record as stored afterwards (undefined when the task is unknown or
   * expired). A shared store implements it with optimistic concurrency (read, compute, write if
   * unchanged, retry), so `change` may run more than once and must not have side effects. A store
   * that keeps per-caller counts moves the task from running to finished when `change` makes its
   * status terminal, and counts the change in the bytes of the task's caller.
   *
   * With a `quota`, a change that makes the record larger is refused (rejected with
   * `McpTaskQuotaExceededException`, nothing written) when it would take the caller's stored bytes
   * past `quota.maxStoredBytes`: checked atomically with the write, as in {@link create}
   * (`McpTaskQuotaExceededException.checkGrowth` decides). A change that does not make the record
   * larger is never refused. Without one, the change is written whatever its size (the runner
   * writes cancellations, lease renewals and failures that way).
   */
  abstract update(
    taskId: string,
    change: (record: McpTaskStore.TaskRecord) => McpTaskStore.TaskRecord | undefined,
    quota?: Pick<McpTaskStore.Quota, 'maxStoredBytes'>,
  ): Promise<McpTaskStore.TaskRecord | undefined>;
}

// A namespace of types only, merged with the class: what an implementer of a store (or of an
// `McpTaskExecutor`) reads.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace McpTaskStore {
  /**
   * Everything the server keeps about one task, as plain JSON so any store can hold it (a shared
   * store serialises it as is). Running work is not in it: the handler runs on the node that started
   * it; what a node needs to resume the task after `tasks/update` (the tool, its arguments, the
   * caller's capabilities and the replay ledger) is.
   *
   * A record is an immutable value: a store may hand the same (frozen) object to every reader, and a
   * change is a new record built by spreading the old one (`{ ...record, status }`), which keeps
   * sharing the parts it does not change (the arguments, above all). Never mutate one.
   */
  export interface TaskRecord {
    taskId: string;
    /** The principal that created the task (null: anonymous); its handler's replays run as it. */
    owner: string | null;
    /**
     * Who created the task: `principal:<id>`, else `address:<client address>`, or `stdio`. Only the
     * same caller may see, update or cancel it, and it counts against this caller in the per-caller
     * quotas (`limits.maxRunningTasksPerCaller`, `limits.maxStoredTasksPerCaller`,
     * `limits.maxStoredTaskBytesPerCaller`). Absent on records
     * written before quotas existed (they count against nobody, and their `owner` decides).
     */
    caller?: string;
    /**
     * The `path` of the server that created the task: only that server answers for it, and a queue's
     * worker runs it with that server's tools. Absent on records written before servers were told
     * apart (every server answers for them; a queue runs them on the global server).
     */
    server?: string;
    status: TaskStatus;
    statusMessage?: string;
    /** ISO 8601. */
    createdAt: string;
    /** ISO 8601. */
    lastUpdatedAt: string;
    ttlMs: number;
    pollIntervalMs: number;
    /** createdAt + ttlMs, in ms epoch: past it the store may forget the task. */
    expiresAt: number;
    /** The tool the task runs. */
    tool: string;
    /** Fixed when the task is created: a store may keep them apart from the rest and ignore changes to them. */
    arguments: Record<string, unknown>;
    protocolVersion: string;
    clientCapabilities: Record<string, unknown>;
    /**
     * @internal The replay ledger of the handler's questions (while input is pending or after it
     * arrived). A store keeps it as it is, with the rest of the record.
     */
    replay?: RequestStatePayload;
    /** The outstanding questions by their wire key (status `input_required`). */
    inputRequests?: Record<string, InputRequest>;
    /** Wire key → ledger key of each outstanding question (wire keys are never reused in a task). */
    inputKeys?: Record<string, string>;
    /** Answers received so far for outstanding questions, by ledger key. */
    answers?: Record<string, Record<string, unknown>>;
    /** Every wire key issued so far. */
    issuedKeys?: string[];
    /** The tool's result (status `completed`). */
    result?: Record<string, unknown>;
    /** The protocol error (status `failed`). */
    error?: TaskError;
    /**
     * While its handler runs (status `working`), ms epoch until which the node running it vouches for
     * it: set by the write that makes it `working` (its creation, its last answer), then renewed by
     * that node every third of `tasks.leaseMs`. Past it, the node is taken as gone and the next read
     * fails the task.
     */
    leaseExpiresAt?: number;
    /**
     * Set once the task was handed to a durable executor (a queue, which runs it again elsewhere when
     * its node dies): its lapsed lease then fails it no more.
     */
    queued?: true;
  }

  /** A task's status (SEP-2663): `working` and `input_required` are live, the other three terminal. */
  export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

  /** The JSON-RPC error a failed task carries. */
  export interface TaskError {
    code: number;
    message: string;
    data?: unknown;
  }

  /**
   * The per-caller bounds a store enforces when it creates a task, counted per
   * {@link McpTaskStore.TaskRecord.caller}: at most `maxRunning` live tasks (working or
   * input_required), at most `maxStored` tasks held (live, or finished and not yet expired) and, when
   * given, at most `maxStoredBytes` bytes for all of them together. The runner passes
   * `limits.maxRunningTasksPerCaller`, `limits.maxStoredTasksPerCaller` and
   * `limits.maxStoredTaskBytesPerCaller`.
   *
   * A task's bytes are the UTF-8 bytes of its JSON as the store keeps it (`JSON.stringify` of the
   * record; a store that keeps the arguments apart counts the record without them plus their JSON),
   * counted from its creation, changed by every update, and released when the store forgets it.
   */
  export interface Quota {
    readonly maxRunning: number;
    readonly maxStored: number;
    /** Bytes all of the caller's stored tasks may take together; none: their bytes are not bounded. */
    readonly maxStoredBytes?: number;
  }

  /**
   * What a caller's tasks add up to at the moment it asks for one more (or for a larger record), so
   * a store can say which bound is met and when to retry. `oldestFinishedExpiresAt` is the ms epoch
   * at which the caller's earliest-expiring finished task goes, if it has one; `bytes`, what its
   * stored tasks take now (see {@link Quota}).
   */
  export interface CallerCount {
    readonly running: number;
    readonly stored: number;
    readonly oldestFinishedExpiresAt?: number;
    /** The bytes the caller's stored tasks take now (see {@link Quota}); none counts as 0. */
    readonly bytes?: number;
  }

  /** Which bound a refused task call met (`McpTaskQuotaExceededException.limit`): one of the `limits` options. */
  export type QuotaLimit = 'maxRunningTasksPerCaller' | 'maxStoredTasksPerCaller' | 'maxStoredTaskBytesPerCaller';
}
