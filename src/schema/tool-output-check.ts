import type { JsonSchema } from '../protocol/wire-types.js';
import { compileJsonSchemaCheck, type SchemaViolation } from './json-schema-check.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { issueLines } from './standard-schema-validator.js';

/**
 * What checking a tool's `structuredContent` found: the value to send (the same value for a JSON
 * Schema; the value the schema answered for a Standard Schema), or one `path: what was expected`
 * line per violation, none of which holds the value.
 */
export type ToolOutputOutcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly violations: readonly string[] };

/** Checks a tool's `structuredContent` against its output schema; a Standard Schema may answer asynchronously. */
export type ToolOutputCheckFn = (structured: unknown) => ToolOutputOutcome | Promise<ToolOutputOutcome>;

/**
 * The check of a tool's results, compiled once at startup, or undefined for a tool without an
 * output schema. A Standard Schema `output` is checked with the library's own `~standard.validate`
 * (its issues become the lines, as for arguments); otherwise the advertised `outputSchema`
 * (hand-written or generated from the DTO return type) with {@link compileJsonSchemaCheck}.
 *
 * @throws JsonSchemaCompileError when the JSON Schema cannot be compiled.
 */
export function compileToolOutputCheck(
  output: StandardSchemaV1 | undefined,
  outputSchema: JsonSchema | undefined,
): ToolOutputCheckFn | undefined {
  if (output !== undefined) return standardOutputCheck(output);
  if (outputSchema === undefined) return undefined;
  const check = compileJsonSchemaCheck(outputSchema);
  return (structured) => {
    const violations = check(structured);
    return violations.length === 0 ? { ok: true, value: structured } : { ok: false, violations: violations.map(line) };
  };
}

function standardOutputCheck(schema: StandardSchemaV1): ToolOutputCheckFn {
  const props = schema['~standard'];
  return (structured) => {
    const answer = props.validate(structured);
    return isThenable(answer) ? answer.then(outcome) : outcome(answer);
  };
}

function outcome(result: StandardSchemaV1.Result<unknown>): ToolOutputOutcome {
  if (!result.issues) return { ok: true, value: result.value };
  // A library that reports failure with an empty list still failed.
  return {
    ok: false,
    violations: result.issues.length > 0 ? issueLines(result.issues) : ['does not match the schema'],
  };
}

function line({ path, expected }: SchemaViolation): string {
  return `${path || 'structuredContent'}: ${expected}`;
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
