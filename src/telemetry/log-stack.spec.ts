import { escapeStacksForLog, logStack } from './log-stack.js';

const FORGED = 'boom\r\n[Nest] 1  - 01/01/2026, 00:00:00   ERROR [Forged] pwned';

/** The lines a log printing `text` shows. */
const lines = (text: string) => text.split(/\r\n|\r|\n|\u2028|\u2029/);

describe('logStack', () => {
  it('escapes the message the stack repeats and keeps every frame on a line of its own', () => {
    const error = new Error(FORGED);
    const stack = logStack(error);
    expect(lines(stack)[0]).toBe('Error: boom\\r\\n[Nest] 1  - 01/01/2026, 00:00:00   ERROR [Forged] pwned');
    expect(lines(stack).slice(1).length).toBeGreaterThan(0);
    for (const line of lines(stack).slice(1)) expect(line).toMatch(/^ {4}at /);
    // The error itself is left as it was.
    expect(error.message).toBe(FORGED);
    expect(error.stack).toContain('\r\n[Nest]');
  });

  it('a message that imitates a frame is escaped as a whole', () => {
    const stack = logStack(new Error('x\n    at [Nest] 1 - ERROR forged'));
    expect(lines(stack)[0]).toBe('Error: x\\n    at [Nest] 1 - ERROR forged');
    expect(stack).not.toContain('\n    at [Nest]');
  });

  it('a stack that no longer repeats the message has its other line breaks escaped', () => {
    const error = new Error('first');
    error.message = 'changed';
    error.stack = `Error: old\n[Nest] ERROR forged\u2028x\n    at f (file.js:1:1)\n    at async g (file.js:2:2)`;
    expect(logStack(error)).toBe(
      'Error: old\\n[Nest] ERROR forged\\u2028x\n    at f (file.js:1:1)\n    at async g (file.js:2:2)',
    );
  });

  it('leaves a stack with a plain message as it is, and writes an error without one as name: message', () => {
    const plain = new TypeError('plain');
    expect(logStack(plain)).toBe(plain.stack);
    const bare = new Error('a\nb');
    bare.stack = undefined;
    expect(logStack(bare)).toBe('Error: a\\nb');
  });
});

describe('escapeStacksForLog', () => {
  it('rewrites the stacks of the error, its causes and an AggregateError’s errors, not their messages', () => {
    const cause = new Error(`cause ${FORGED}`);
    const inner = new Error(`inner ${FORGED}`);
    const error = new AggregateError([inner], `outer ${FORGED}`, { cause });
    escapeStacksForLog(error);
    for (const each of [error, cause, inner]) {
      expect(lines(each.stack!).some((line) => line.startsWith('[Nest]'))).toBe(false);
      expect(each.message).toContain('\r\n[Nest]');
    }
    // Twice is once.
    const once = error.stack;
    escapeStacksForLog(error);
    expect(error.stack).toBe(once);
  });

  it('ignores what is not an error, a cycle of causes and a frozen error', () => {
    expect(() => escapeStacksForLog('text\n[Nest] forged')).not.toThrow();
    const a = new Error('a\nb');
    const b = new Error('b\nc', { cause: a });
    (a as { cause?: unknown }).cause = b;
    escapeStacksForLog(a);
    expect(lines(b.stack!)[0]).toBe('Error: b\\nc');
    const frozen = Object.freeze(new Error('f\ng'));
    expect(() => escapeStacksForLog(frozen)).not.toThrow();
  });
});
