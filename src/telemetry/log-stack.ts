import { logText } from '../protocol/log-text.js';

// A line break that starts a stack frame (`    at …`), the one kind a logged stack keeps.
const FRAME_BREAK = /\r?\n(?=[ \t]+at )/;
// How many errors of one chain (`cause`, `AggregateError#errors`) are rewritten at most.
const MAX_CHAIN = 8;

/**
 * An error's stack as it may appear in a log line: the message it repeats written as
 * {@link logText} writes it (escaped, cut), every other control character escaped but the line
 * breaks before its frames (`    at …`), so text a client put in an error message (a tool's
 * `new Error(\`… ${input}\`)`) cannot start a log line of its own. An error without a stack is
 * its `name: message`, escaped.
 */
export function logStack(error: Error): string {
  const message = typeof error.message === 'string' ? error.message : '';
  const stack = typeof error.stack === 'string' ? error.stack : undefined;
  if (stack === undefined) return `${logText(error.name)}: ${logText(message)}`;
  const escaped = logText(message);
  const at = escaped === message || message === '' ? -1 : stack.indexOf(message);
  const text = at < 0 ? stack : stack.slice(0, at) + escaped + stack.slice(at + message.length);
  return text
    .split(FRAME_BREAK)
    .map((part) => logText(part, Infinity))
    .join('\n');
}

/**
 * Rewrites, in place, the stack of an error (and those of its `cause` chain and
 * `AggregateError#errors`) to {@link logStack}'s, for a logger that prints the error itself, as
 * Nest's exception handler does with what a handler threw. The message is left as it is: it is
 * what the client is answered.
 */
export function escapeStacksForLog(error: unknown, seen = new Set<Error>()): void {
  if (!(error instanceof Error) || seen.has(error) || seen.size >= MAX_CHAIN) return;
  seen.add(error);
  const stack = logStack(error);
  if (stack !== error.stack) {
    try {
      error.stack = stack;
    } catch {
      // A frozen error keeps its stack.
    }
  }
  escapeStacksForLog(error.cause, seen);
  if (error instanceof AggregateError && Array.isArray(error.errors)) {
    for (const inner of error.errors as unknown[]) escapeStacksForLog(inner, seen);
  }
}
