import { McpError } from '../protocol/mcp.error.js';
import type { DtoValidationResult, DtoValidatorFn } from './dto-validator.js';
import type { StandardSchemaV1 } from './standard-schema.js';

/** Validates raw arguments with a Standard Schema, which may answer asynchronously. */
export type StandardSchemaValidatorFn = (raw: unknown) => Promise<DtoValidationResult>;

/** A tool's two ways of validating its arguments with its Standard Schema. */
export interface StandardSchemaValidators {
  /** The call path: awaits the library's answer, synchronous or not. */
  readonly validateAsync: StandardSchemaValidatorFn;
  /**
   * For callers that cannot wait (a task's replay): the library's answer when it is synchronous,
   * as it is for schemas without asynchronous refinements.
   *
   * @throws McpError -32602 when the schema answers asynchronously.
   */
  readonly validate: DtoValidatorFn;
}

/**
 * The validators of a Standard Schema `input`: the value it answers (transformed, defaults filled,
 * unknown keys handled as the schema says) becomes the handler's input; its issues become the same
 * lines a DTO's violations do (`path: message`, `guests[1].name: ...`), so a tool answers bad
 * arguments the same way whichever library checks them.
 */
export function compileStandardSchemaValidators(schema: StandardSchemaV1, tool: string): StandardSchemaValidators {
  const props = schema['~standard'];
  return {
    validateAsync: async (raw) => outcome(await props.validate(raw)),
    validate: (raw) => {
      const answer = props.validate(raw);
      if (isThenable(answer)) {
        // Nobody waits for it: keep a rejection from becoming an unhandled one.
        answer.then(undefined, () => undefined);
        throw McpError.invalidParams(
          `The arguments of tool ${tool} can only be checked asynchronously (${props.vendor} answered a promise), which this path cannot wait for`,
        );
      }
      return outcome(answer);
    },
  };
}

function outcome(result: StandardSchemaV1.Result<unknown>): DtoValidationResult {
  if (result.issues) return { ok: false, violations: issueLines(result.issues) };
  return { ok: true, value: result.value as object };
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** One line per issue, prefixed with its path when it has one. */
export function issueLines(issues: ReadonlyArray<StandardSchemaV1.Issue>): string[] {
  const lines = issues.map((issue) => {
    const path = issuePath(issue);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  // A library that reports failure with an empty list still failed.
  return lines.length > 0 ? lines : ['the arguments do not match the tool input schema'];
}

const INDEX = /^\d+$/;

function issuePath(issue: StandardSchemaV1.Issue): string {
  let path = '';
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    const name = typeof key === 'symbol' ? (key.description ?? '') : String(key);
    if (typeof key === 'number' || INDEX.test(name)) path += `[${name}]`;
    else path = path ? `${path}.${name}` : name;
  }
  return path;
}
