import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { compileJsonSchemaCheck, JsonSchemaCompileError } from './json-schema-check.js';

// ajv-formats is CommonJS: its default export arrives as the module object under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

/** One keyword, a value that passes and one that fails with the path and words expected. */
interface Case {
  readonly keyword: string;
  readonly schema: Record<string, unknown>;
  readonly pass: unknown;
  readonly fail: unknown;
  readonly violation: { path: string; expected: string | RegExp };
}

const CASES: Case[] = [
  {
    keyword: 'type string',
    schema: { type: 'string' },
    pass: 'a',
    fail: 1,
    violation: { path: '', expected: 'must be a string' },
  },
  {
    keyword: 'type number',
    schema: { type: 'number' },
    pass: 1.5,
    fail: '1',
    violation: { path: '', expected: 'must be a number' },
  },
  {
    keyword: 'type integer',
    schema: { type: 'integer' },
    pass: 2,
    fail: 2.5,
    violation: { path: '', expected: 'must be an integer' },
  },
  {
    keyword: 'type boolean',
    schema: { type: 'boolean' },
    pass: false,
    fail: 0,
    violation: { path: '', expected: 'must be a boolean' },
  },
  {
    keyword: 'type array',
    schema: { type: 'array' },
    pass: [],
    fail: {},
    violation: { path: '', expected: 'must be an array' },
  },
  {
    keyword: 'type object',
    schema: { type: 'object' },
    pass: {},
    fail: [],
    violation: { path: '', expected: 'must be an object' },
  },
  {
    keyword: 'type null',
    schema: { type: 'null' },
    pass: null,
    fail: 0,
    violation: { path: '', expected: 'must be null' },
  },
  {
    keyword: 'type list (nullable)',
    schema: { type: ['string', 'null'] },
    pass: null,
    fail: 3,
    violation: { path: '', expected: 'must be a string or null' },
  },
  {
    keyword: 'properties',
    schema: { type: 'object', properties: { total: { type: 'number' } } },
    pass: { total: 3 },
    fail: { total: 'three' },
    violation: { path: 'total', expected: 'must be a number' },
  },
  {
    keyword: 'required',
    schema: { type: 'object', required: ['id'] },
    pass: { id: 1 },
    fail: { other: 1 },
    violation: { path: 'id', expected: 'is required' },
  },
  {
    keyword: 'additionalProperties false',
    schema: { type: 'object', properties: { a: {} }, additionalProperties: false },
    pass: { a: 1 },
    fail: { a: 1, b: 2 },
    violation: { path: 'b', expected: 'is not allowed' },
  },
  {
    keyword: 'additionalProperties schema',
    schema: { type: 'object', additionalProperties: { type: 'integer' } },
    pass: { x: 1, y: 2 },
    fail: { x: 1, y: 'z' },
    violation: { path: 'y', expected: 'must be an integer' },
  },
  {
    keyword: 'patternProperties',
    schema: { type: 'object', patternProperties: { '^n_': { type: 'number' } }, additionalProperties: false },
    pass: { n_a: 1 },
    fail: { n_a: 'x' },
    violation: { path: 'n_a', expected: 'must be a number' },
  },
  {
    keyword: 'propertyNames',
    schema: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
    pass: { abc: 1 },
    fail: { Abc: 1 },
    violation: { path: 'Abc', expected: 'must match the pattern ^[a-z]+$' },
  },
  {
    keyword: 'minProperties',
    schema: { minProperties: 1 },
    pass: { a: 1 },
    fail: {},
    violation: { path: '', expected: 'must have at least 1 properties' },
  },
  {
    keyword: 'maxProperties',
    schema: { maxProperties: 1 },
    pass: { a: 1 },
    fail: { a: 1, b: 2 },
    violation: { path: '', expected: 'must have at most 1 properties' },
  },
  {
    keyword: 'items',
    schema: { type: 'array', items: { type: 'string' } },
    pass: ['a', 'b'],
    fail: ['a', 2],
    violation: { path: '[1]', expected: 'must be a string' },
  },
  {
    keyword: 'prefixItems',
    schema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
    pass: ['a', 1],
    fail: ['a', 1, true],
    violation: { path: '[2]', expected: 'is not allowed' },
  },
  {
    keyword: 'contains',
    schema: { type: 'array', contains: { const: 'x' } },
    pass: ['a', 'x'],
    fail: ['a'],
    violation: { path: '', expected: 'must contain at least 1 matching item(s)' },
  },
  {
    keyword: 'minItems',
    schema: { type: 'array', minItems: 1 },
    pass: [1],
    fail: [],
    violation: { path: '', expected: 'must have at least 1 items' },
  },
  {
    keyword: 'maxItems',
    schema: { type: 'array', maxItems: 1 },
    pass: [1],
    fail: [1, 2],
    violation: { path: '', expected: 'must have at most 1 items' },
  },
  {
    keyword: 'uniqueItems',
    schema: { type: 'array', uniqueItems: true },
    pass: [{ a: 1 }, { a: 2 }],
    fail: [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ],
    violation: { path: '', expected: 'must not have duplicate items' },
  },
  {
    keyword: 'enum',
    schema: { enum: ['open', 'closed', 1] },
    pass: 'open',
    fail: 'gone',
    violation: { path: '', expected: 'must be one of "open", "closed", 1' },
  },
  {
    keyword: 'const',
    schema: { const: { v: 1 } },
    pass: { v: 1 },
    fail: { v: 2 },
    violation: { path: '', expected: 'must be {"v":1}' },
  },
  { keyword: 'minimum', schema: { minimum: 1 }, pass: 1, fail: 0.5, violation: { path: '', expected: 'must be >= 1' } },
  {
    keyword: 'maximum',
    schema: { maximum: 10 },
    pass: 10,
    fail: 11,
    violation: { path: '', expected: 'must be <= 10' },
  },
  {
    keyword: 'exclusiveMinimum',
    schema: { exclusiveMinimum: 0 },
    pass: 0.1,
    fail: 0,
    violation: { path: '', expected: 'must be > 0' },
  },
  {
    keyword: 'exclusiveMaximum',
    schema: { exclusiveMaximum: 0 },
    pass: -1,
    fail: 0,
    violation: { path: '', expected: 'must be < 0' },
  },
  {
    keyword: 'multipleOf',
    schema: { multipleOf: 0.5 },
    pass: 1.5,
    fail: 1.2,
    violation: { path: '', expected: 'must be a multiple of 0.5' },
  },
  {
    keyword: 'minLength (code points)',
    schema: { minLength: 2 },
    pass: 'ab',
    fail: '😀',
    violation: { path: '', expected: 'must have at least 2 characters' },
  },
  {
    keyword: 'maxLength',
    schema: { maxLength: 2 },
    pass: '😀😀',
    fail: 'abc',
    violation: { path: '', expected: 'must have at most 2 characters' },
  },
  {
    keyword: 'pattern',
    schema: { pattern: '^[A-Z]{3}$' },
    pass: 'EUR',
    fail: 'eur',
    violation: { path: '', expected: 'must match the pattern ^[A-Z]{3}$' },
  },
  {
    keyword: 'format date-time',
    schema: { format: 'date-time' },
    pass: '2026-07-28T10:00:00Z',
    fail: '2026-02-30T10:00:00Z',
    violation: { path: '', expected: 'must be a valid date-time' },
  },
  {
    keyword: 'format date',
    schema: { format: 'date' },
    pass: '2024-02-29',
    fail: '2023-02-29',
    violation: { path: '', expected: 'must be a valid date' },
  },
  {
    keyword: 'format time',
    schema: { format: 'time' },
    pass: '23:59:59.5+02:00',
    fail: '24:00:00Z',
    violation: { path: '', expected: 'must be a valid time' },
  },
  {
    keyword: 'format email',
    schema: { format: 'email' },
    pass: 'ada@example.com',
    fail: 'ada at example',
    violation: { path: '', expected: 'must be a valid email' },
  },
  {
    keyword: 'format uri',
    schema: { format: 'uri' },
    pass: 'https://example.com/a?b=1',
    fail: '/relative',
    violation: { path: '', expected: 'must be a valid uri' },
  },
  {
    keyword: 'format uuid',
    schema: { format: 'uuid' },
    pass: '123e4567-e89b-12d3-a456-426614174000',
    fail: '123e4567',
    violation: { path: '', expected: 'must be a valid uuid' },
  },
  {
    keyword: 'format ipv4',
    schema: { format: 'ipv4' },
    pass: '10.0.0.1',
    fail: '10.0.0.256',
    violation: { path: '', expected: 'must be a valid ipv4' },
  },
  {
    keyword: 'anyOf',
    schema: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    pass: null,
    fail: 1,
    violation: { path: '', expected: 'must be a string or null' },
  },
  {
    keyword: 'oneOf',
    schema: { oneOf: [{ type: 'integer' }, { type: 'number' }] },
    pass: 1.5,
    fail: 1,
    violation: { path: '', expected: 'must match exactly one schema of oneOf, not 2' },
  },
  {
    keyword: 'allOf',
    schema: { allOf: [{ type: 'object', required: ['a'] }, { required: ['b'] }] },
    pass: { a: 1, b: 2 },
    fail: { a: 1 },
    violation: { path: 'b', expected: 'is required' },
  },
  {
    keyword: 'not',
    schema: { not: { type: 'null' } },
    pass: 0,
    fail: null,
    violation: { path: '', expected: 'must not match the schema under not' },
  },
  {
    keyword: 'if/then/else',
    schema: {
      if: { properties: { kind: { const: 'card' } } },
      then: { required: ['last4'] },
      else: { required: ['iban'] },
    },
    pass: { kind: 'card', last4: '1234' },
    fail: { kind: 'sepa' },
    violation: { path: 'iban', expected: 'is required' },
  },
  {
    keyword: '$ref to $defs',
    schema: { type: 'object', properties: { money: { $ref: '#/$defs/Money' } }, $defs: { Money: { type: 'number' } } },
    pass: { money: 1 },
    fail: { money: '1' },
    violation: { path: 'money', expected: 'must be a number' },
  },
  {
    keyword: '$ref recursive (#)',
    schema: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
    },
    pass: { name: 'a', children: [{ name: 'b', children: [] }] },
    fail: { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] },
    violation: { path: 'children[0].children[0].name', expected: 'must be a string' },
  },
  {
    keyword: 'false schema',
    schema: { type: 'object', properties: { secret: false } },
    pass: {},
    fail: { secret: 1 },
    violation: { path: 'secret', expected: 'is not allowed' },
  },
];

describe('compileJsonSchemaCheck', () => {
  it.each(CASES.map((c) => [c.keyword, c] as const))(
    '%s: passes a conforming value, names the failing one',
    (_k, c) => {
      const check = compileJsonSchemaCheck(c.schema);
      expect(check(c.pass)).toEqual([]);
      const violations = check(c.fail);
      expect(violations).toEqual([
        { path: c.violation.path, expected: expect.stringMatching(exact(c.violation.expected)) },
      ]);
      // The same verdicts as Ajv (with ajv-formats), which the official client validates with.
      const validate = ajv.compile(c.schema);
      expect([validate(c.pass), validate(c.fail)]).toEqual([true, false]);
    },
  );

  it('reports every violation, with paths through nested objects and arrays, never the values', () => {
    const check = compileJsonSchemaCheck({
      type: 'object',
      properties: {
        order: {
          type: 'object',
          properties: {
            lines: {
              type: 'array',
              items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
            },
          },
          required: ['lines'],
        },
        'odd key': { type: 'integer' },
      },
      required: ['order', 'total'],
    });
    const violations = check({ order: { lines: [{ sku: 'A' }, { sku: 2 }, {}] }, 'odd key': 'SECRET' });
    expect(violations).toEqual([
      { path: 'total', expected: 'is required' },
      { path: 'order.lines[1].sku', expected: 'must be a string' },
      { path: 'order.lines[2].sku', expected: 'is required' },
      { path: '["odd key"]', expected: 'must be an integer' },
    ]);
    expect(JSON.stringify(violations)).not.toContain('SECRET');
  });

  it('checks the value as its JSON: undefined properties are absent, a Date is its ISO string, NaN is null', () => {
    const check = compileJsonSchemaCheck({
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time' }, n: { type: 'null' }, gone: { type: 'string' } },
      required: ['at', 'gone'],
    });
    expect(check({ at: new Date(0), n: Number.NaN, gone: undefined })).toEqual([
      { path: 'gone', expected: 'is required' },
    ]);
  });

  it('ignores unknown keywords, annotations and a $ref to another document', () => {
    const check = compileJsonSchemaCheck({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 't',
      description: 'd',
      'x-mcp-header': 'H',
      unevaluatedProperties: false,
      properties: { remote: { $ref: 'https://example.com/schema.json' } },
      format: 'hostname',
    });
    expect(check({ anything: 1, remote: 'x' })).toEqual([]);
  });

  it('applies type-specific keywords only to values of that type', () => {
    const check = compileJsonSchemaCheck({ minLength: 3, minimum: 5, minItems: 2, required: ['a'] });
    expect([check(1_000), check('long'), check([1, 2]), check({ a: 1 }), check(null)]).toEqual([[], [], [], [], []]);
  });

  it('accepts a class-validator pattern that is not a valid `u` regular expression', () => {
    const check = compileJsonSchemaCheck({ pattern: '^[\\w-\\.]+$' });
    expect([check('a-b.c'), check('a b')]).toEqual([
      [],
      [{ path: '', expected: 'must match the pattern ^[\\w-\\.]+$' }],
    ]);
  });

  it('refuses at compile time a pattern that is no regular expression and a local $ref to nothing', () => {
    expect(() => compileJsonSchemaCheck({ properties: { a: { pattern: '(' } } })).toThrow(JsonSchemaCompileError);
    expect(() => compileJsonSchemaCheck({ properties: { a: { pattern: '(' } } })).toThrow(
      /#\/properties\/a: the pattern "\(" is not a valid/,
    );
    expect(() => compileJsonSchemaCheck({ $ref: '#/$defs/Missing' })).toThrow(
      /\$ref "#\/\$defs\/Missing" points at nothing/,
    );
  });

  it('names the types of anyOf branches, or counts them', () => {
    expect(compileJsonSchemaCheck({ anyOf: [{ required: ['a'] }, { required: ['b'] }] })({})).toEqual([
      { path: '', expected: 'must match at least one of the 2 schemas of anyOf' },
    ]);
    expect(compileJsonSchemaCheck({ oneOf: [{ type: 'string' }, { type: 'integer' }] })(true)).toEqual([
      { path: '', expected: 'must be a string or an integer' },
    ]);
  });
});

function exact(expected: string | RegExp): RegExp {
  return typeof expected === 'string' ? new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : expected;
}
