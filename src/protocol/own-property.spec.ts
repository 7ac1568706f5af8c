import { ownValue, setOwn } from './own-property.js';

describe('ownValue', () => {
  it('finds own properties only, never what an object inherits', () => {
    const record: Record<string, string> = { a: 'A', 'elicit-1': 'E' };
    expect(ownValue(record, 'a')).toBe('A');
    expect(ownValue(record, 'elicit-1')).toBe('E');
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'b']) {
      expect(ownValue(record, name)).toBeUndefined();
    }
    expect(ownValue(undefined, 'a')).toBeUndefined();
  });

  it('finds an own "__proto__" (as JSON.parse makes it), and works on null-prototype objects', () => {
    expect(ownValue(JSON.parse('{"__proto__": 1}') as Record<string, number>, '__proto__')).toBe(1);
    const bare = Object.create(null) as Record<string, number>;
    bare['k'] = 2;
    expect(ownValue(bare, 'k')).toBe(2);
    expect(ownValue(bare, 'toString')).toBeUndefined();
  });
});

describe('setOwn', () => {
  it('sets "__proto__" as a key, leaving the prototype alone', () => {
    const record: Record<string, unknown> = {};
    setOwn(record, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(['__proto__']);
    expect(JSON.stringify(record)).toBe('{"__proto__":{"polluted":true}}');
    expect((record as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('behaves as an assignment for any other key: enumerable, writable, configurable', () => {
    const record: Record<string, number> = { a: 1 };
    setOwn(record, 'a', 2);
    setOwn(record, 'constructor', 3);
    expect(record).toEqual({ a: 2, constructor: 3 });
    record['a'] = 4;
    delete record['constructor'];
    expect(record).toEqual({ a: 4 });
  });
});
