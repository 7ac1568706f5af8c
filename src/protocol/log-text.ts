/** The longest piece of client text one log line carries. */
const MAX_LOG_TEXT = 200;

// C0 and C1 controls (CR, LF, ESC among them), DEL, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Client-controlled text as it may appear in a log line: every control character escaped (`\n`,
 * `\r`, `\t`, else `\u00XX`), so a name, URI or message cannot start a forged line or recolour a
 * terminal, and cut to {@link MAX_LOG_TEXT} characters.
 */
export function logText(value: unknown, max = MAX_LOG_TEXT): string {
  const text = typeof value === 'string' ? value : printable(value);
  const cut = text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
  return cut.replace(UNSAFE, escapeControl);
}

/**
 * A value that is not a string, as text. A primitive goes through `String()`; an object as JSON,
 * never through a conversion it may define: a client's `{"toString":1}` would make `String()` throw.
 */
function printable(value: unknown): string {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  if (value instanceof Error) return value.message;
  try {
    return JSON.stringify(value) ?? `(${typeof value})`;
  } catch {
    return `(unprintable ${typeof value})`;
  }
}

function escapeControl(char: string): string {
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  if (char === '\t') return '\\t';
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
