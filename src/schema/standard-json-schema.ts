import type { JsonSchema } from '../protocol/wire-types.js';
import type { StandardSchemaV1 } from './standard-schema.js';

/** Which side of a schema: what it accepts (a tool's arguments) or what it produces (its result). */
export type StandardSchemaSide = 'input' | 'output';

/**
 * The JSON Schema (draft 2020-12) of a Standard Schema's input or output, from the library's own
 * converter (Standard JSON Schema v1, `~standard.jsonSchema`), for a tool's advertised
 * `inputSchema` / `outputSchema`. Called once at startup.
 *
 * @param what names the tool in the errors (`MCP tool "x" (Class.method)`).
 * @throws Error, saying what to set, when the library has no converter, when the converter cannot
 *   express the schema, or when the result does not describe an object (MCP requires object
 *   schemas for both).
 */
export function standardJsonSchema(schema: StandardSchemaV1, side: StandardSchemaSide, what: string): JsonSchema {
  const { vendor, jsonSchema } = schema['~standard'];
  const instead = `set ${side}Schema beside it (a JSON Schema 2020-12 object), which is then advertised as is`;
  const convert = jsonSchema?.[side];
  if (typeof convert !== 'function') {
    throw new Error(
      `${what}: its ${side} (a ${vendor} schema) does not implement Standard JSON Schema (~standard.jsonSchema), so no ${side}Schema can be derived from it: ${instead}.`,
    );
  }
  let derived: unknown;
  try {
    derived = convert({ target: 'draft-2020-12' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${what}: ${vendor} could not turn its ${side} into JSON Schema (${reason}): ${instead}.`, {
      cause: error,
    });
  }
  if (typeof derived !== 'object' || derived === null || Array.isArray(derived)) {
    throw new Error(`${what}: ${vendor} answered no JSON Schema object for its ${side}: ${instead}.`);
  }
  const type = (derived as JsonSchema)['type'];
  if (type !== 'object') {
    throw new Error(
      `${what}: its ${side} must describe an object (the ${side}Schema of an MCP tool has type "object"), but ${vendor} derived type ${JSON.stringify(type)}. Use an object schema (say z.object({ ... })).`,
    );
  }
  return derived as JsonSchema;
}
