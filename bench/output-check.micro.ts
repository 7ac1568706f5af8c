/**
 * What holding a tool's result to its output schema costs per call, in process, through the
 * module's own path (`conformingToolResult`, as `tools/call` runs it on a handler's value):
 *
 *   none        a tool without an output schema: the value made a CallToolResult, nothing checked
 *   dto         the JSON Schema generated from a flat DTO return type (`dtoToJsonSchema`)
 *   nested      a hand-written JSON Schema: an object with an array of objects, enums, bounds
 *   zod         a Standard Schema `output` (zod 4): its own `~standard.validate`
 *
 * Each conforming result passes; the check is compiled once, before the timing, as at startup.
 * Reported, never asserted.
 *
 *   node bench/out/build/bench/output-check.micro.js [--smoke]
 */
import 'reflect-metadata';
import { IsInt, IsString } from 'class-validator';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

import { conformingToolResult } from '../src/calls/tool-output-conformance.js';
import type { JsonSchema } from '../src/protocol/wire-types.js';
import { dtoToJsonSchema } from '../src/schema/dto-json-schema.js';
import { compileToolOutputCheck } from '../src/schema/tool-output-check.js';

export interface OutputCheckRow {
  readonly schema: 'none' | 'dto' | 'nested' | 'zod';
  readonly us: number;
}

class SumResult {
  @IsInt() sum!: number;
  @IsString() label!: string;
}

const NESTED: JsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    days: {
      type: 'array',
      maxItems: 14,
      items: {
        type: 'object',
        properties: {
          date: { type: 'string' },
          high: { type: 'number', minimum: -90, maximum: 60 },
          sky: { type: 'string', enum: ['clear', 'cloudy', 'rain', 'snow'] },
        },
        required: ['date', 'high', 'sky'],
        additionalProperties: false,
      },
    },
  },
  required: ['city', 'days'],
};

const ZOD = z.object({ sum: z.number().int(), label: z.string() });

const LOGGER = { error: () => undefined };

/** Runs `op(i)` for i = 0..count-1 after a warm-up of the same; microseconds per call. */
async function timed(count: number, op: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(count, 2000); i++) await op(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(i);
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

export async function runOutputCheck(count: number): Promise<OutputCheckRow[]> {
  const tools = {
    none: { name: 'none', source: 'Bench.none', checkOutput: undefined },
    dto: {
      name: 'dto',
      source: 'Bench.dto',
      checkOutput: compileToolOutputCheck(undefined, dtoToJsonSchema(SumResult)),
    },
    nested: { name: 'nested', source: 'Bench.nested', checkOutput: compileToolOutputCheck(undefined, NESTED) },
    zod: { name: 'zod', source: 'Bench.zod', checkOutput: compileToolOutputCheck(ZOD, undefined) },
  } as const;
  const values = {
    none: (i: number) => ({ sum: i, label: 'sum' }),
    dto: (i: number) => ({ sum: i, label: 'sum' }),
    nested: (i: number) => ({
      city: 'Paris',
      days: [
        { date: '2026-12-04', high: (i % 30) - 5, sky: 'clear' },
        { date: '2026-12-05', high: 7, sky: 'rain' },
        { date: '2026-12-06', high: 3, sky: 'cloudy' },
      ],
    }),
    zod: (i: number) => ({ sum: i, label: 'sum' }),
  } as const;
  const rows: OutputCheckRow[] = [];
  for (const schema of ['none', 'dto', 'nested', 'zod'] as const) {
    const tool = tools[schema];
    const value = values[schema];
    rows.push({
      schema,
      us: await timed(count, async (i) => {
        const result = await conformingToolResult(tool, value(i), LOGGER);
        if (result.isError) throw new Error(`the ${schema} result was refused: ${JSON.stringify(result.content)}`);
      }),
    });
  }
  return rows;
}

export function renderOutputCheck(rows: readonly OutputCheckRow[]): string {
  return rows.map((row) => `${row.schema.padEnd(8)}  ${row.us.toFixed(2).padStart(6)} us`).join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = process.argv.includes('--smoke') ? 2000 : 200_000;
  runOutputCheck(count).then(
    (rows) => console.log(renderOutputCheck(rows)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
