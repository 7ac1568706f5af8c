/**
 * zod 4 versions of the shared tool inputs, for the SDK and MCP-Nest targets. Built from a given
 * `z`, so that a target loading its packages from its own install (MCP-Nest, bench/peers/) uses
 * the zod instance its library resolves; the exports below use the repository's own zod.
 */
import { z as rootZ } from 'zod';

import type { FillerField, FillerTool } from '../shared/bench-spec.js';

type Zod = typeof rootZ;

export function zodSchemas(z: Zod) {
  const fieldSchema = (field: FillerField) => {
    const base =
      field.kind === 'string'
        ? z.string()
        : field.kind === 'integer'
          ? z.number().int()
          : field.kind === 'number'
            ? z.number()
            : z.boolean();
    const described = base.describe(field.description);
    return field.optional ? described.optional() : described;
  };
  return {
    NumberPairSchema: z.object({ a: z.number(), b: z.number() }),
    ConfirmSchema: z.object({ ok: z.boolean() }),
    StepsSchema: z.object({ steps: z.number().int().min(1).max(16), a: z.number(), b: z.number() }),
    fillerZodSchema(tool: FillerTool) {
      const shape: Record<string, ReturnType<typeof fieldSchema>> = {};
      for (const field of tool.fields) shape[field.name] = fieldSchema(field);
      return z.object(shape);
    },
  };
}

export const { NumberPairSchema, ConfirmSchema, StepsSchema, fillerZodSchema } = zodSchemas(rootZ);
