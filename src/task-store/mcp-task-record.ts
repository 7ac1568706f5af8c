import type { McpTaskStore } from './mcp-task.store.js';

/** The names the package's own code uses for {@link McpTaskStore.TaskRecord} and {@link McpTaskStore.TaskStatus}. */
export type McpTaskRecord = McpTaskStore.TaskRecord;
export type McpTaskStatus = McpTaskStore.TaskStatus;

/** Whether a status is final: nothing changes a task once it is completed, failed or cancelled. */
export function isTerminal(status: McpTaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
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
