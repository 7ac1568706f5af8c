import { logText } from './log-text.js';

describe('logText', () => {
  it('escapes CR, LF and tab so a value cannot start a forged log line', () => {
    expect(logText('bistro://x\n[Nest] 1 - ERROR [Forged] pwned\r')).toBe(
      'bistro://x\\n[Nest] 1 - ERROR [Forged] pwned\\r',
    );
    expect(logText('a\tb')).toBe('a\\tb');
  });

  it('escapes other control characters, ANSI escapes and the Unicode line separators', () => {
    expect(logText('\u001b[31mred\u0000\u007f\u0085\u2028\u2029')).toBe(
      '\\u001b[31mred\\u0000\\u007f\\u0085\\u2028\\u2029',
    );
  });

  it('leaves ordinary text, including non-ASCII, as it is', () => {
    expect(logText('tools/call book_table · café ✓')).toBe('tools/call book_table · café ✓');
  });

  it('cuts long values and says how long they were', () => {
    const out = logText('x'.repeat(5000));
    expect(out).toBe(`${'x'.repeat(200)}…(5000 chars)`);
    expect(logText('abcdef', 3)).toBe('abc…(6 chars)');
  });

  it('renders non-strings with String()', () => {
    expect(logText(42)).toBe('42');
    expect(logText(undefined)).toBe('undefined');
  });

  it('renders objects as JSON, without calling a toString or valueOf they carry', () => {
    expect(logText({ toString: 1, valueOf: 1 })).toBe('{"toString":1,"valueOf":1}');
    expect(logText(['a', { b: null }])).toBe('["a",{"b":null}]');
    expect(logText(() => 1)).toBe('(function)');
    expect(logText(new TypeError('bad'))).toBe('bad');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(logText(cyclic)).toBe('(unprintable object)');
  });
});
