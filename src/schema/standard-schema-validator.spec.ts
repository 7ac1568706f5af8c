import { McpError } from '../protocol/mcp.error.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { isStandardSchema } from './standard-schema.js';
import { compileStandardSchemaValidators, issueLines } from './standard-schema-validator.js';

/** A hand-made Standard Schema: what a library of any vendor looks like from here. */
function schemaAnswering(
  answer: (value: unknown) => StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>,
): StandardSchemaV1 {
  return { '~standard': { version: 1, vendor: 'hand', validate: answer } };
}

describe('Standard Schema issues as violation lines', () => {
  it('prefixes each message with its path: keys, path segments, indices, symbols', () => {
    expect(
      issueLines([
        { message: 'top' },
        { message: 'm1', path: ['guest', 'email'] },
        { message: 'm2', path: [{ key: 'guests' }, { key: 1 }, { key: 'name' }] },
        { message: 'm3', path: ['rows', '2', Symbol('cell')] },
        { message: 'm4', path: [] },
      ]),
    ).toEqual(['top', 'guest.email: m1', 'guests[1].name: m2', 'rows[2].cell: m3', 'm4']);
  });

  it('still reports a failure that came with no issue', () => {
    expect(issueLines([])).toEqual(['the arguments do not match the tool input schema']);
  });
});

describe('compileStandardSchemaValidators', () => {
  it('answers the value the schema gives, synchronously and asynchronously', async () => {
    const validators = compileStandardSchemaValidators(
      schemaAnswering(() => ({ value: { n: 2 } })),
      't',
    );
    expect(validators.validate({})).toEqual({ ok: true, value: { n: 2 } });
    await expect(validators.validateAsync({})).resolves.toEqual({ ok: true, value: { n: 2 } });
  });

  it('waits for a schema that answers a promise; the synchronous path refuses it with -32602', async () => {
    const later = compileStandardSchemaValidators(
      schemaAnswering(async () => ({ issues: [{ message: 'taken', path: ['code'] }] })),
      'redeem',
    );
    await expect(later.validateAsync({ code: 'x' })).resolves.toEqual({ ok: false, violations: ['code: taken'] });
    let thrown: unknown;
    try {
      later.validate({ code: 'x' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpError);
    expect((thrown as McpError).code).toBe(-32602);
    expect((thrown as McpError).message).toMatch(
      /tool redeem can only be checked asynchronously \(hand answered a promise\)/,
    );
  });

  it('recognises Standard Schema values, callable ones too, and nothing else', () => {
    const callable = Object.assign(() => undefined, {
      '~standard': { version: 1, vendor: 'arktype', validate: () => ({ value: 1 }) },
    });
    expect(isStandardSchema(callable)).toBe(true);
    expect(isStandardSchema(schemaAnswering(() => ({ value: 1 })))).toBe(true);
    for (const value of [
      null,
      undefined,
      {},
      { type: 'object' },
      { '~standard': { version: 2, vendor: 'x', validate: () => 1 } },
      { '~standard': { version: 1, vendor: 'x' } },
    ]) {
      expect(isStandardSchema(value)).toBe(false);
    }
  });
});
