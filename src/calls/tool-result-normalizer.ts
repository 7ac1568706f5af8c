import type { CallToolResult } from '../protocol/wire-types.js';

function isCallToolResult(value: object): value is CallToolResult {
  return Array.isArray((value as { content?: unknown }).content);
}

/**
 * A handler's return value as a CallToolResult: a string becomes text content; a full result
 * passes through; an object becomes `structuredContent` plus its JSON as text; anything else is
 * rendered as text.
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'object') {
    if (isCallToolResult(value)) return value;
    const text = JSON.stringify(value);
    if (Array.isArray(value)) return { content: [{ type: 'text', text }] };
    return { content: [{ type: 'text', text }], structuredContent: value as Record<string, unknown> };
  }
  return { content: [{ type: 'text', text: String(value) }] };
}

/** A failure the model can read and act on: `isError: true` with the message as text. */
export function toolErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
