import { createHash } from 'node:crypto';
import { canonicalJson, sha256Base64url } from './canonical-json.js';

describe('canonicalJson (RFC 8785)', () => {
  it('serialises the RFC 8785 §3.2.2 sample exactly', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        '"literals":[null,true,false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units (RFC 8785 §3.2.3 sample)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
    [123456789012345680000, '123456789012345680000'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [-1.5, '-1.5'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('formats the number %p as %s', (n, text) => {
    expect(canonicalJson(n)).toBe(text);
  });

  it.each([NaN, Infinity, -Infinity])('rejects the non-finite number %p', (n) => {
    expect(() => canonicalJson({ a: [n] })).toThrow(TypeError);
  });

  it('rejects a bigint and a cycle', () => {
    expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it('writes no whitespace and sorts nested objects', () => {
    expect(canonicalJson({ b: { d: 1, c: [true, { z: null, y: 'x' }] }, a: 'é' })).toBe(
      '{"a":"é","b":{"c":[true,{"y":"x","z":null}],"d":1}}',
    );
  });

  it('follows JSON.stringify for undefined, functions and toJSON', () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: [undefined, Symbol('s')] })).toBe('{"c":[null,null]}');
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it('gives equal text for equal values in a different key order', () => {
    expect(canonicalJson({ x: 1, y: { b: 2, a: 1 } })).toBe(canonicalJson({ y: { a: 1, b: 2 }, x: 1 }));
  });

  it('escapes lone surrogates instead of throwing', () => {
    expect(canonicalJson('\ud800')).toBe('"\\ud800"');
  });
});

describe('sha256Base64url', () => {
  it('is the unpadded base64url SHA-256 of the UTF-8 bytes', () => {
    expect(sha256Base64url('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    const expected = createHash('sha256').update(Buffer.from('héllo', 'utf8')).digest('base64url');
    expect(sha256Base64url('héllo')).toBe(expected);
    expect(sha256Base64url('')).toHaveLength(43);
  });
});
