import type { McpTaskRecord } from './mcp-task-record.js';

/**
 * The record without its arguments, as JSON: what a store that keeps the arguments apart (they
 * never change) writes on every update. Its UTF-8 bytes plus those of the arguments' JSON are what a
 * task counts in its caller's budget (`limits.maxStoredTaskBytesPerCaller`).
 */
export function statusJson(record: McpTaskRecord): string {
  return JSON.stringify({ ...record, arguments: undefined });
}

/** Bytes of the JSON of parts made by `frozenJson`, by identity: such a part never changes. */
const partBytes = new WeakMap<object, number>();

/**
 * The bytes a task takes in its caller's budget, for a record made by `frozenJson` (every part
 * deeply frozen): the UTF-8 bytes of its {@link statusJson} plus `argumentsBytes`, those of its
 * arguments' JSON (counted once, when the task is created). A part already counted is not counted
 * again, so a changed record (`{ ...record, statusMessage }`) costs O(what changed), as it does to
 * store. Never give it a record whose parts may still change.
 */
export function frozenRecordBytes(record: McpTaskRecord, argumentsBytes: number): number {
  let bytes = 2; // {}
  let fields = 0;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'arguments' || value === undefined || typeof value === 'function') continue;
    // "key":value, with a comma before all but the first.
    bytes += (fields++ > 0 ? 1 : 0) + utf8(JSON.stringify(key)) + 1 + valueBytes(value);
  }
  return bytes + argumentsBytes;
}

function valueBytes(value: unknown): number {
  if (value === null || typeof value !== 'object') return utf8(JSON.stringify(value) ?? 'null');
  let bytes = partBytes.get(value);
  if (bytes === undefined) partBytes.set(value, (bytes = utf8(JSON.stringify(value))));
  return bytes;
}

function utf8(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
