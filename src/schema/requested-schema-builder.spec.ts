import { RequestedSchemaBuilder } from './requested-schema-builder.js';

/** Compile-time equality: `npm run typecheck` fails when an inferred answer type drifts. */
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | undefined {
  return undefined;
}
type ContentOf<B> = B extends RequestedSchemaBuilder<infer T> ? T : never;

const b = () => new RequestedSchemaBuilder();

describe('RequestedSchemaBuilder', () => {
  describe('schemas', () => {
    it('writes every property kind exactly, in wire order (golden JSON)', () => {
      const schema = b()
        .string('name', { title: 'Name', description: 'Full name', minLength: 1, maxLength: 80, default: 'Ann' })
        .string('email', { format: 'email', optional: true })
        .number('ratio', { minimum: 0, maximum: 1, default: 0.5 })
        .integer('age', { title: 'Age', minimum: 0, maximum: 150, optional: true })
        .boolean('subscribe', { description: 'Newsletter?', default: false })
        .choose('size', ['s', 'm', 'l'], { default: 'm' })
        .choose('speed', { std: 'Standard', exp: 'Express' }, { title: 'Speed' })
        .chooseMany('toppings', ['ham', 'olives'], { minItems: 1, maxItems: 2, default: ['ham'] })
        .chooseMany('extras', { bag: 'Gift bag', card: 'Card' }, { optional: true })
        .build();
      expect(JSON.stringify(schema)).toBe(
        JSON.stringify({
          type: 'object',
          properties: {
            name: {
              type: 'string',
              title: 'Name',
              description: 'Full name',
              minLength: 1,
              maxLength: 80,
              default: 'Ann',
            },
            email: { type: 'string', format: 'email' },
            ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
            age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
            subscribe: { type: 'boolean', description: 'Newsletter?', default: false },
            size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
            speed: {
              type: 'string',
              title: 'Speed',
              oneOf: [
                { const: 'std', title: 'Standard' },
                { const: 'exp', title: 'Express' },
              ],
            },
            toppings: {
              type: 'array',
              minItems: 1,
              maxItems: 2,
              items: { type: 'string', enum: ['ham', 'olives'] },
              default: ['ham'],
            },
            extras: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'bag', title: 'Gift bag' },
                  { const: 'card', title: 'Card' },
                ],
              },
            },
          },
          required: ['name', 'ratio', 'subscribe', 'size', 'speed', 'toppings'],
        }),
      );
    });

    it.each(['date', 'date-time', 'uri', 'email'] as const)('writes the %s format', (format) => {
      expect(b().string('x', { format }).build().properties['x']).toEqual({ type: 'string', format });
    });

    it('leaves out required when every field is optional, and allows an empty form', () => {
      expect(b().boolean('ok', { optional: true }).build()).toEqual({
        type: 'object',
        properties: { ok: { type: 'boolean' } },
      });
      expect(b().build()).toEqual({ type: 'object', properties: {} });
    });

    it('treats optional: false as required', () => {
      expect(b().string('x', { optional: false }).build().required).toEqual(['x']);
    });

    it('returns a fresh copy from every build()', () => {
      const builder = b().choose('c', ['a', 'b']);
      const first = builder.build();
      (first.properties['c']!['enum'] as string[]).push('z');
      first.required!.push('y');
      expect(builder.build()).toEqual({
        type: 'object',
        properties: { c: { type: 'string', enum: ['a', 'b'] } },
        required: ['c'],
      });
    });

    it('keeps a field named __proto__ as an ordinary property', () => {
      const schema = b().string('__proto__').build();
      expect(Object.keys(schema.properties)).toEqual(['__proto__']);
      expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
    });
  });

  describe('mistakes fail at once', () => {
    it.each([
      ['a duplicate field', () => b().string('x').integer('x')],
      ['an empty name', () => b().string('')],
      ['minLength above maxLength', () => b().string('x', { minLength: 3, maxLength: 2 })],
      ['a negative minLength', () => b().string('x', { minLength: -1 })],
      ['an unknown format', () => b().string('x', { format: 'phone' as 'email' })],
      ['a default longer than maxLength', () => b().string('x', { maxLength: 2, default: 'abc' })],
      ['minimum above maximum', () => b().number('x', { minimum: 2, maximum: 1 })],
      ['an infinite bound', () => b().number('x', { maximum: Infinity })],
      ['a fractional integer default', () => b().integer('x', { default: 1.5 })],
      ['a default out of range', () => b().number('x', { minimum: 0, default: -1 })],
      ['a non-boolean default', () => b().boolean('x', { default: 'yes' as unknown as boolean })],
      ['no choices', () => b().choose('x', [])],
      ['a repeated choice', () => b().choose('x', ['a', 'a'])],
      ['a default outside the choices', () => b().choose('x', ['a'], { default: 'b' as 'a' })],
      ['minItems above maxItems', () => b().chooseMany('x', ['a', 'b'], { minItems: 2, maxItems: 1 })],
      ['minItems above the number of choices', () => b().chooseMany('x', ['a'], { minItems: 2 })],
      ['defaults outside the choices', () => b().chooseMany('x', ['a'], { default: ['b' as 'a'] })],
      ['too many defaults', () => b().chooseMany('x', ['a', 'b'], { maxItems: 1, default: ['a', 'b'] })],
    ])('%s', (_label, build) => {
      expect(build).toThrow(/"x"|name/);
    });
  });

  describe('inferred answer types', () => {
    it('accumulates required and optional fields', () => {
      const builder = b().string('name').integer('age', { optional: true });
      expectType<Equal<ContentOf<typeof builder>, { name: string; age?: number }>>();
      expect(builder.build().required).toEqual(['name']);
    });

    it('types choices as their values', () => {
      const builder = b()
        .choose('size', ['s', 'm'])
        .choose('speed', { std: 'Standard', exp: 'Express' }, { optional: true })
        .chooseMany('tags', ['x', 'y'])
        .boolean('ok')
        .number('n', { optional: false });
      expectType<
        Equal<
          ContentOf<typeof builder>,
          { size: 's' | 'm'; speed?: 'std' | 'exp'; tags: Array<'x' | 'y'>; ok: boolean; n: number }
        >
      >();
      expect(Object.keys(builder.build().properties)).toEqual(['size', 'speed', 'tags', 'ok', 'n']);
    });

    it('widens to string for a non-literal list and to optional for a non-literal flag', () => {
      const values: string[] = ['a'];
      const optional: boolean = Math.random() > 2;
      const builder = b().choose('c', values).string('s', { optional });
      expectType<Equal<ContentOf<typeof builder>, { c: string; s?: string }>>();
      expect(builder.build().required).toEqual(['c', 's']);
    });

    it('starts from an empty answer', () => {
      expectType<Equal<ContentOf<RequestedSchemaBuilder>, {}>>();
      expect(b().build().required).toBeUndefined();
    });
  });
});
