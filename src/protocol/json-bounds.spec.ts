import { jsonBoundsProblem } from './json-bounds.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('jsonBoundsProblem', () => {
  it('accepts ordinary values up to the depth bound', () => {
    expect(jsonBoundsProblem({ a: [1, { b: 'x', c: null, d: true }], e: -0.5 }, 32)).toBeUndefined();
    expect(jsonBoundsProblem(nested(32), 32)).toBeUndefined();
  });

  it('names nesting past the bound, without recursion even 100,000 levels deep', () => {
    expect(jsonBoundsProblem(nested(33), 32)).toBe('is nested deeper than 32 levels');
    expect(jsonBoundsProblem(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 32)).toBe(
      'is nested deeper than 32 levels',
    );
  });

  it('names numbers JSON cannot carry', () => {
    expect(jsonBoundsProblem(JSON.parse('{"a":[1e400]}'), 32)).toBe(
      'holds a number outside the range JSON numbers can carry',
    );
    expect(jsonBoundsProblem(JSON.parse('-1e999'), 32)).toBe('holds a number outside the range JSON numbers can carry');
  });
});

describe('jsonBoundsProblem reads own properties only', () => {
  it('ignores an enumerable property inherited from a prototype, as Object.values does', () => {
    const proto = { inherited: Infinity };
    const value = Object.assign(Object.create(proto) as Record<string, unknown>, { own: 1 });
    expect(jsonBoundsProblem(value, 32)).toBeUndefined();
    expect(jsonBoundsProblem({ own: value, bad: Infinity }, 32)).toBe(
      'holds a number outside the range JSON numbers can carry',
    );
  });
});
