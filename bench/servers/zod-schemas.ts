/** zod 4 versions of the shared tool inputs, for the SDK and MCP-Nest targets. */
import { z } from 'zod';

import type { FillerField, FillerTool } from '../shared/bench-spec.js';

export const NumberPairSchema = z.object({ a: z.number(), b: z.number() });
export const ConfirmSchema = z.object({ ok: z.boolean() });

function fieldSchema(field: FillerField): z.ZodType {
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
}

export function fillerZodSchema(tool: FillerTool): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const field of tool.fields) shape[field.name] = fieldSchema(field);
  return z.object(shape);
}
