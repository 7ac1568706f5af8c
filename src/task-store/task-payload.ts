import { McpError } from '../protocol/mcp.error.js';
import type { McpTaskRecord } from './mcp-task-record.js';

/** Bytes of the JSON of a task's arguments or result, as `limits.maxTaskPayloadBytes` counts them. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/**
 * Refuses what a client asks a task to keep (its arguments, its `tasks/update` answers) past
 * `limits.maxTaskPayloadBytes`: -32602, HTTP 400, before anything is stored or runs.
 */
export function checkClientPayload(what: string, value: unknown, maxBytes: number): void {
  const bytes = jsonBytes(value);
  if (bytes <= maxBytes) return;
  throw McpError.invalidParams(
    `The ${what} of a task may take at most ${maxBytes} bytes of JSON (limits.maxTaskPayloadBytes); these take ${bytes}`,
    { limit: 'maxTaskPayloadBytes', maxBytes },
    400,
  );
}

/** How a task ends: the fields its final update sets. */
export type TaskEnding = Pick<McpTaskRecord, 'status' | 'statusMessage' | 'result' | 'error'>;

/**
 * The ending to store, with why it replaced the handler's one: an ending whose result or error is
 * past `maxBytes` (keeping megabytes for the task's lifetime is what the bound prevents), or that
 * JSON cannot carry (a BigInt, a cycle: no `tasks/get` could ever answer it), fails the task instead.
 * Without this, such a task would stay `working` until it expires, holding its caller's quota.
 */
export function boundedEnding(ending: TaskEnding, maxBytes: number): { ending: TaskEnding; refused?: string } {
  let bytes: number;
  try {
    bytes = jsonBytes({ result: ending.result, error: ending.error });
  } catch (error) {
    // The first line only: V8's message for a cycle goes on with a drawing of it.
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    const message = `The task's outcome cannot be sent as JSON (${reason}); it was not kept`;
    return { ending: failed({ code: -32603, message }), refused: message };
  }
  if (bytes <= maxBytes) return { ending };
  const message = `The task's ${ending.error ? 'error' : 'result'} takes ${bytes} bytes of JSON, more than limits.maxTaskPayloadBytes (${maxBytes}); it was not kept`;
  return {
    ending: failed({ code: -32603, message, data: { limit: 'maxTaskPayloadBytes', maxBytes } }),
    refused: message,
  };
}

/**
 * The failure that replaces what a handler added to its task (its result or error, its questions)
 * when keeping it would take the caller's stored tasks past `limits.maxStoredTaskBytesPerCaller`:
 * the store does not grow past the budget, and the task does not stay `working` holding its quotas.
 */
export function overBudget(what: string, maxBytes: number): TaskEnding {
  const message = `The task's ${what} would take this caller's stored tasks past limits.maxStoredTaskBytesPerCaller (${maxBytes} bytes); it was not kept`;
  return failed({ code: -32603, message, data: { limit: 'maxStoredTaskBytesPerCaller', maxBytes } });
}

function failed(error: NonNullable<McpTaskRecord['error']>): TaskEnding {
  return { status: 'failed', statusMessage: error.message, result: undefined, error };
}
