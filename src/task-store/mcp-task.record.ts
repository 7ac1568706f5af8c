import type { InputRequest } from '../protocol/wire-types.js';
import type { RequestStatePayload } from '../mrtr/request-state.payload.js';

/**
 * A task's status (SEP-2663): `working` and `input_required` are live, the other three terminal.
 *
 * @publicApi
 */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Whether a status is final: nothing changes a task once it is completed, failed or cancelled. */
export function isTerminal(status: McpTaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The JSON-RPC error a failed task carries. */
export interface McpTaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * Everything the server keeps about one task, as plain JSON so any store can hold it (a shared
 * store serialises it as is). Running work is not in it: the handler runs on the node that started
 * it; what a node needs to resume the task after `tasks/update` (the tool, its arguments, the
 * caller's capabilities and the replay ledger) is.
 *
 * A record is an immutable value: a store may hand the same (frozen) object to every reader, and a
 * change is a new record built by spreading the old one (`{ ...record, status }`), which keeps
 * sharing the parts it does not change (the arguments, above all). Never mutate one.
 *
 * @publicApi
 */
export interface McpTaskRecord {
  taskId: string;
  /** The principal that created the task (null: anonymous); its handler's replays run as it. */
  owner: string | null;
  /**
   * Who created the task: `principal:<id>`, else `address:<client address>`, or `stdio`. Only the
   * same caller may see, update or cancel it, and it counts against this caller in the per-caller
   * quotas (`limits.maxRunningTasksPerCaller`, `limits.maxStoredTasksPerCaller`). Absent on records
   * written before quotas existed (they count against nobody, and their `owner` decides).
   */
  caller?: string;
  /**
   * The `path` of the server that created the task: only that server answers for it, and a queue's
   * worker runs it with that server's tools. Absent on records written before servers were told
   * apart (every server answers for them; a queue runs them on the global server).
   */
  server?: string;
  status: McpTaskStatus;
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
  error?: McpTaskError;
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

const NO_ARGUMENTS: Record<string, unknown> = Object.freeze({});

/**
 * The record without what never changes and can be large (its arguments and replay ledger): what
 * task-change listeners need (status, payload, owner), so an event costs O(status) to carry.
 */
export function statusOf(record: McpTaskRecord): McpTaskRecord {
  const { replay: _replay, ...status } = record;
  return { ...status, arguments: NO_ARGUMENTS };
}

/** The `Task` fields every shape shares (CreateTaskResult, tasks/get, notifications/tasks). */
function taskFields(record: McpTaskRecord): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** The flat `CreateTaskResult` (Result & Task) a task-creating `tools/call` answers with. */
export function createTaskResult(record: McpTaskRecord): Record<string, unknown> {
  return { ...taskFields(record), resultType: 'task' };
}

/** The `DetailedTask` of tasks/get and notifications/tasks: the status's own payload inlined. */
export function detailedTask(record: McpTaskRecord): Record<string, unknown> {
  const task = taskFields(record);
  if (record.status === 'input_required') task['inputRequests'] = record.inputRequests ?? {};
  if (record.status === 'completed') task['result'] = record.result ?? { content: [] };
  if (record.status === 'failed') task['error'] = record.error ?? { code: -32603, message: 'Internal error' };
  return task;
}
