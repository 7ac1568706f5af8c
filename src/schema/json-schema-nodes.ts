// The building blocks of a compiled JSON Schema check: a node (one keyword's check of a value, at
// a path), the path as text, and the leaf checks and combinators the compiler assembles nodes from.
import { jsonEqual } from './json-equal.js';
import { isObject } from './json-schema-values.js';
import { listText, TYPE_WORDS, valueText } from './json-schema-words.js';

/**
 * One place where a value fails its JSON Schema: the path of the failing value (`items[0].sku`,
 * '' for the value itself) and what was expected there (`must be a number`). Neither holds the
 * value: a message may reach a client and a log.
 */
export interface SchemaViolation {
  readonly path: string;
  readonly expected: string;
}

/** A schema that cannot be compiled: a `pattern` that is no regular expression, a `$ref` that resolves to nothing. */
export class JsonSchemaCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSchemaCompileError';
  }
}

/** Where a value sits, built as the check descends and turned into text only for a violation. */
export interface PathLink {
  readonly up: PathLink | undefined;
  readonly key: string | number;
}

export type Node = (value: unknown, at: PathLink | undefined, out: SchemaViolation[]) => void;
export type Schema = Readonly<Record<string, unknown>>;

/** The one node of the schema `true`, and of everything the check does not understand. */
export const ANYTHING: Node = () => undefined;

/** A violation's path as text: `items[0].sku`, `["odd key"]`, '' for the value itself. */
export function pathText(at: PathLink | undefined): string {
  let text = '';
  for (let link = at; link; link = link.up) {
    const { key } = link;
    const part =
      typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    text = part + text;
  }
  return text.startsWith('.') ? text.slice(1) : text;
}

export function typeCheck(type: unknown): Node | undefined {
  const types =
    typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t) => typeof t === 'string') : [];
  const tests = types.map((t) => TYPE_TESTS[t as string]).filter((t) => t !== undefined);
  if (tests.length === 0 || tests.length !== types.length) return undefined;
  const expected = `must be ${types.map((t) => TYPE_WORDS[t as string]).join(' or ')}`;
  if (tests.length === 1) {
    const test = tests[0]!;
    return (value, at, out) => {
      if (!test(value)) out.push({ path: pathText(at), expected });
    };
  }
  return (value, at, out) => {
    if (!tests.some((test) => test(value))) out.push({ path: pathText(at), expected });
  };
}

const TYPE_TESTS: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number',
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  array: Array.isArray,
  object: isObject,
  null: (value) => value === null,
};

export function enumCheck(s: Schema): Node | undefined {
  const checks: Node[] = [];
  if (Array.isArray(s['enum'])) {
    const allowed = s['enum'] as unknown[];
    const expected = `must be one of ${listText(allowed)}`;
    checks.push((value, at, out) => {
      if (!allowed.some((candidate) => jsonEqual(candidate, value))) out.push({ path: pathText(at), expected });
    });
  }
  if ('const' in s) {
    const constant = s['const'];
    const expected = `must be ${valueText(constant)}`;
    checks.push((value, at, out) => {
      if (!jsonEqual(constant, value)) out.push({ path: pathText(at), expected });
    });
  }
  return checks.length === 0 ? undefined : all(checks);
}

/** The rules of one kind of value, run only on a value of that kind (as JSON Schema applies them). */
export function keywordList<T>(
  rules: ReadonlyArray<readonly [(value: T) => boolean, string]>,
  applies: (value: unknown) => value is T,
): Node | undefined {
  if (rules.length === 0) return undefined;
  return (value, at, out) => {
    if (!applies(value)) return;
    for (const [ok, expected] of rules) if (!ok(value)) out.push({ path: pathText(at), expected });
  };
}

export function onlyFor(applies: (value: unknown) => boolean, checks: readonly Node[]): Node | undefined {
  if (checks.length === 0) return undefined;
  const every = all(checks);
  return (value, at, out) => {
    if (applies(value)) every(value, at, out);
  };
}

export function all(checks: readonly Node[]): Node {
  if (checks.length === 1) return checks[0]!;
  return (value, at, out) => {
    for (const check of checks) check(value, at, out);
  };
}

/** Whether `value` conforms to `node`, its violations thrown away (the branches of anyOf, oneOf, not, if). */
export function passes(node: Node, value: unknown): boolean {
  const out: SchemaViolation[] = [];
  node(value, undefined, out);
  return out.length === 0;
}

export function compilePattern(pattern: string, where: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      // A pattern written for JavaScript without the `u` flag (a class-validator @Matches) still works.
      return new RegExp(pattern);
    } catch (error) {
      throw new JsonSchemaCompileError(
        `${where}: the pattern ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`,
      );
    }
  }
}

export function resolvePointer(root: unknown, ref: string): unknown {
  let target = root;
  const pointer = ref.slice(1);
  if (pointer !== '') {
    for (const raw of pointer.replace(/^\//, '').split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)[key] : undefined;
      if (target === undefined) break;
    }
  }
  if (target === undefined)
    throw new JsonSchemaCompileError(`$ref ${JSON.stringify(ref)} points at nothing in the schema`);
  return target;
}
