import type { McpTaskError } from './mcp-task.record.js';

/** Bytes of the JSON of a task's arguments or result, as `limits.maxTaskPayloadBytes` counts them. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** The error a task fails with when its result is too large to keep. */
export function payloadTooLarge(bytes: number, maxBytes: number): McpTaskError {
  return {
    code: -32603,
    message: `The task's result takes ${bytes} bytes of JSON, more than limits.maxTaskPayloadBytes (${maxBytes}); it was not kept`,
    data: { limit: 'maxTaskPayloadBytes', maxBytes },
  };
}
