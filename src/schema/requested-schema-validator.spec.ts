import { RequestedSchemaBuilder } from './requested-schema-builder.js';
import { sanitizeElicitContent, validateElicitContent } from './requested-schema-validator.js';

const schema = new RequestedSchemaBuilder()
  .string('name', { minLength: 2, maxLength: 5 })
  .string('email', { format: 'email', optional: true })
  .string('site', { format: 'uri', optional: true })
  .string('day', { format: 'date', optional: true })
  .string('at', { format: 'date-time', optional: true })
  .number('ratio', { minimum: 0, maximum: 1, optional: true })
  .integer('age', { minimum: 18, optional: true })
  .boolean('ok', { optional: true })
  .choose('size', ['s', 'm'], { optional: true })
  .choose('speed', { std: 'Standard', exp: 'Express' }, { optional: true })
  .chooseMany('tags', ['x', 'y', 'z'], { minItems: 1, maxItems: 2, optional: true })
  .chooseMany('extras', { bag: 'Bag', card: 'Card' }, { optional: true })
  .build();

const valid = (content: Record<string, unknown>) => validateElicitContent(schema, { name: 'Ann', ...content });

describe('validateElicitContent', () => {
  it('accepts a complete, fitting answer', () => {
    expect(
      valid({
        email: 'ann@example.com',
        site: 'https://example.com/x?y=1',
        day: '2024-02-29',
        at: '2026-07-28T12:34:56.789+02:00',
        ratio: 0.25,
        age: 18,
        ok: false,
        size: 'm',
        speed: 'exp',
        tags: ['x', 'z'],
        extras: ['card'],
      }),
    ).toBe(true);
  });

  it.each([null, undefined, 'text', 42, [], [{ name: 'Ann' }]])('refuses the non-object %p', (content) => {
    expect(validateElicitContent(schema, content)).toBe(false);
  });

  it('refuses a missing or null required field, allows missing or null optional ones', () => {
    expect(validateElicitContent(schema, {})).toBe(false);
    expect(validateElicitContent(schema, { name: null })).toBe(false);
    expect(valid({ email: null, age: undefined })).toBe(true);
  });

  it.each([
    ['a number for a string', { name: 12 }],
    ['a string too short', { name: 'A' }],
    ['a string too long', { name: 'Annabel' }],
    ['a bad email', { email: 'ann at example' }],
    ['a relative uri', { site: '/just/a/path' }],
    ['a uri with spaces', { site: 'https://exa mple.com' }],
    ['an impossible date', { day: '2023-02-29' }],
    ['a date with time', { day: '2024-01-01T00:00:00Z' }],
    ['a date-time without zone', { at: '2026-07-28T12:34:56' }],
    ['a date-time with hour 24', { at: '2026-07-28T24:00:00Z' }],
    ['a numeric string for a number', { ratio: '0.5' }],
    ['a number below minimum', { ratio: -0.1 }],
    ['a number above maximum', { ratio: 1.01 }],
    ['a fraction for an integer', { age: 20.5 }],
    ['an integer below minimum', { age: 17 }],
    ['a string for a boolean', { ok: 'true' }],
    ['a value outside enum', { size: 'xl' }],
    ['a title instead of a const', { speed: 'Express' }],
    ['a string for a multi-select', { tags: 'x' }],
    ['an unknown multi-select item', { tags: ['q'] }],
    ['too few items', { tags: [] }],
    ['too many items', { tags: ['x', 'y', 'z'] }],
    ['a non-string item', { tags: [1] }],
    ['an unknown titled item', { extras: ['Bag'] }],
  ])('refuses %s', (_label, content) => {
    expect(valid(content)).toBe(false);
  });

  it('counts string length in code points', () => {
    expect(valid({ name: '😀😀' })).toBe(true);
    expect(valid({ name: '😀😀😀😀😀😀' })).toBe(false);
  });

  it('ignores fields the schema does not know', () => {
    expect(valid({ nickname: 'A', nested: { deep: true } })).toBe(true);
  });

  it('does not read inherited properties as answers', () => {
    const proto = { name: 'Ann' };
    expect(validateElicitContent(schema, Object.create(proto))).toBe(false);
  });
});

describe('sanitizeElicitContent', () => {
  it('keeps declared fields only and drops nulls of optional fields', () => {
    expect(sanitizeElicitContent(schema, { name: 'Ann', extra: 1, email: null, tags: ['x'] })).toEqual({
      name: 'Ann',
      tags: ['x'],
    });
  });

  it('returns undefined for an answer that does not fit', () => {
    expect(sanitizeElicitContent(schema, { name: 'A' })).toBeUndefined();
  });

  it('copies arrays so the answer does not alias the request', () => {
    const tags = ['x'];
    const out = sanitizeElicitContent(schema, { name: 'Ann', tags })!;
    expect(out['tags']).toEqual(['x']);
    expect(out['tags']).not.toBe(tags);
  });

  it('keeps a field named __proto__ as a field, never as the prototype', () => {
    const odd = new RequestedSchemaBuilder().string('__proto__').string('name').build();
    const out = sanitizeElicitContent(odd, JSON.parse('{"__proto__":"x","name":"Ada"}'))!;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'name']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('x');
    expect(sanitizeElicitContent(odd, { name: 'Ada' })).toBeUndefined();
  });
});
