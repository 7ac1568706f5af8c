import type { GetPromptResult, PromptMessage } from '../protocol/wire-types.js';

const isMessage = (value: unknown): value is PromptMessage =>
  typeof value === 'object' && value !== null && 'role' in value && 'content' in value;

/** A prompt handler's return value as a GetPromptResult: a string is one user text message. */
export function toGetPromptResult(value: unknown): GetPromptResult {
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  if (Array.isArray(value) && value.every(isMessage)) return { messages: value };
  if (isMessage(value)) return { messages: [value] };
  if (typeof value === 'object' && value !== null && Array.isArray((value as GetPromptResult).messages))
    return value as GetPromptResult;
  throw new TypeError('A prompt handler must return a string, a message, an array of messages or a GetPromptResult');
}
