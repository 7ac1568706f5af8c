import { isJsonObject } from '../protocol/is-json-object.js';
import { jsonBoundsProblem } from '../protocol/json-bounds.js';
import { LegacyInputError } from './legacy-input.error.js';
import type { LegacySessionState } from './legacy-session-state.js';

/**
 * Hands a client's response to the pushed request of `state` it answers: its result settles the
 * push, an error (or an answer nested deeper than `maxJsonDepth`) fails it. False when no pushed
 * request with the response's id is waiting.
 */
export function answerPush(state: LegacySessionState, message: Record<string, unknown>, maxJsonDepth: number): boolean {
  const id = message['id'];
  if (typeof id !== 'string') return false;
  const push = state.pending.get(id);
  if (!push) return false;
  const problem = jsonBoundsProblem(message['result'] ?? message['error'], maxJsonDepth);
  if (problem) {
    push.reject(new LegacyInputError(`The client's answer to ${push.method} ${problem}.`, 'invalid_answer'));
    return true;
  }
  if (isJsonObject(message['result'])) {
    push.resolve(message['result']);
  } else {
    const error = isJsonObject(message['error']) ? message['error'] : {};
    // Read without converting: a client's `code` may be an object whose toString throws.
    const code = typeof error['code'] === 'number' || typeof error['code'] === 'string' ? error['code'] : undefined;
    const text = typeof error['message'] === 'string' ? error['message'] : undefined;
    const detail = text !== undefined ? `: ${text}` : '';
    push.reject(
      new LegacyInputError(
        `The client answered ${push.method} with an error (${code ?? 'no code'}${detail}).`,
        'error_answer',
        code === undefined ? undefined : { code, ...(text !== undefined && { message: text }) },
      ),
    );
  }
  return true;
}
