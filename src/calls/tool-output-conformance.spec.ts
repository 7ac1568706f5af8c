import { jest } from '@jest/globals';
import { z } from 'zod';
import { compileToolOutputCheck } from '../schema/tool-output-check.js';
import { conformingToolResult } from './tool-output-conformance.js';

const SCHEMA = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };

function toolWith(check: ReturnType<typeof compileToolOutputCheck>) {
  return { name: 'quote', source: 'Tools.quote', checkOutput: check };
}

describe('conformingToolResult', () => {
  const logger = { error: jest.fn() };
  beforeEach(() => logger.error.mockClear());

  it('passes a conforming full result as the same object, logging nothing', () => {
    const result = { content: [], structuredContent: { total: 3 } };
    expect(conformingToolResult(toolWith(compileToolOutputCheck(undefined, SCHEMA)), result, logger)).toBe(result);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('runs nothing for a tool without an output schema, nor for an isError result', () => {
    const check = jest.fn(() => ({ ok: false as const, violations: ['x'] }));
    const failed = { content: [], isError: true };
    expect(conformingToolResult(toolWith(check), failed, logger)).toBe(failed);
    expect(conformingToolResult(toolWith(undefined), 'text', logger)).toEqual({
      content: [{ type: 'text', text: 'text' }],
    });
    expect(check).not.toHaveBeenCalled();
  });

  it('turns a non-conforming result into an isError naming the path, with one escaped ERROR line', () => {
    const result = conformingToolResult(
      toolWith(compileToolOutputCheck(undefined, { type: 'object', additionalProperties: false })),
      { 'evil\nkey': 'SECRET' },
      logger,
    );
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'The tool quote returned a result that does not match its outputSchema (an error in the server, not in the arguments):\n- ["evil\\nkey"]: is not allowed',
        },
      ],
      isError: true,
    });
    expect(logger.error).toHaveBeenCalledTimes(1);
    const line = logger.error.mock.calls[0]![0] as string;
    expect(line).not.toMatch(/[\n\r]/);
    expect(line).not.toContain('SECRET');
  });

  it('lists at most ten violations', () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, 1]));
    const result = conformingToolResult(
      toolWith(compileToolOutputCheck(undefined, { additionalProperties: false })),
      many,
      logger,
    ) as { content: Array<{ text: string }> };
    const lines = result.content[0]!.text.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe('- … and 2 more');
  });

  it('answers a check that throws (a toJSON that fails) as an isError, logged', () => {
    const total = {
      toJSON() {
        throw new Error('cannot serialize');
      },
    };
    const result = conformingToolResult(
      toolWith(compileToolOutputCheck(undefined, SCHEMA)),
      { content: [], structuredContent: { total } },
      logger,
    );
    expect(result).toMatchObject({ isError: true });
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringContaining('could not be checked against its outputSchema: cannot serialize'),
    );
  });

  it("replaces structuredContent with a Standard Schema's value, keeping a full result's own content", async () => {
    const check = compileToolOutputCheck(z.object({ n: z.number(), unit: z.string().default('kg') }), undefined);
    const full = { content: [{ type: 'text' as const, text: 'three' }], structuredContent: { n: 3, extra: 1 } };
    expect(await conformingToolResult(toolWith(check), full, logger)).toEqual({
      content: [{ type: 'text', text: 'three' }],
      structuredContent: { n: 3, unit: 'kg' },
    });
    expect(await conformingToolResult(toolWith(check), { n: 3 }, logger)).toEqual({
      content: [{ type: 'text', text: '{"n":3,"unit":"kg"}' }],
      structuredContent: { n: 3, unit: 'kg' },
    });
  });
});
