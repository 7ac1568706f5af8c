import { frozenJson } from './frozen-json.js';

describe('frozenJson', () => {
  it('copies and deeply freezes plain JSON, leaving the given objects mutable', () => {
    const input = { a: [1, { b: 2 }], c: 'x' };
    const out = frozenJson(input);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(Object.isFrozen(out) && Object.isFrozen(out.a) && Object.isFrozen(out.a[1])).toBe(true);
    expect(Object.isFrozen(input) || Object.isFrozen(input.a)).toBe(false);
  });

  it('reuses parts it made before: a spread of a frozen value copies only the new top level', () => {
    const stored = frozenJson({ args: { big: [1, 2, 3] }, status: 'working' });
    const next = frozenJson({ ...stored, status: 'completed' });
    expect(next.args).toBe(stored.args);
    expect(next.status).toBe('completed');
    expect(frozenJson(next)).toBe(next);
  });

  it('converts what JSON would (dates, undefined, functions) and keeps an own "__proto__" key as a key', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as Record<string, unknown>;
    const out = frozenJson({ parsed, at: new Date(0), gone: undefined, list: [undefined], fn: () => 1 });
    expect(JSON.stringify(out)).toBe(
      '{"parsed":{"__proto__":{"polluted":true},"ok":1},"at":"1970-01-01T00:00:00.000Z","list":[null]}',
    );
    expect(Object.getPrototypeOf(out.parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('copies a user object that is frozen but not made here (its children may still change)', () => {
    const shallow = Object.freeze({ inner: { n: 1 } });
    const out = frozenJson(shallow);
    expect(out).not.toBe(shallow);
    expect(Object.isFrozen(out.inner)).toBe(true);
  });
});
