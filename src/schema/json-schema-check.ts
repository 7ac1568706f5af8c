import { formatCheck } from './json-schema-formats.js';
import {
  allDistinct,
  arrayItem,
  asJson,
  codePoints,
  isMultiple,
  isObject,
  isSchemaMap,
  present,
  presentCount,
} from './json-schema-values.js';
import { alternatives, rangeWords } from './json-schema-words.js';
import {
  all,
  ANYTHING,
  compilePattern,
  enumCheck,
  keywordList,
  type Node,
  onlyFor,
  passes,
  type PathLink,
  pathText,
  resolvePointer,
  type Schema,
  type SchemaViolation,
  typeCheck,
} from './json-schema-nodes.js';

export { JsonSchemaCompileError, pathText, type SchemaViolation } from './json-schema-nodes.js';

/** Checks a value against one compiled schema: every violation found, none when it conforms. */
export type JsonSchemaCheck = (value: unknown) => readonly SchemaViolation[];

/**
 * Compiles a JSON Schema (draft 2020-12, the MCP default; draft-07 tuples too) into a check, once:
 * the check walks only the value. It knows the keywords of the schemas this module generates
 * from DTOs and those schema libraries emit: `type` (one or a list, `integer` included),
 * `properties`, `required`, `additionalProperties`, `patternProperties`, `propertyNames`,
 * `minProperties`/`maxProperties`, `items`, `prefixItems`, `contains`, `minItems`/`maxItems`,
 * `uniqueItems`, `enum`, `const`, `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`,
 * `multipleOf`, `minLength`/`maxLength` (in code points), `pattern` (a `u` regular expression),
 * `format` (`date-time`, `date`, `time`, `email`, `uri`, `uuid`, `ipv4`), `anyOf`/`oneOf`/`allOf`/`not`,
 * `if`/`then`/`else`, and `$ref` to a JSON pointer in the same document (`#/$defs/…`, `#`).
 * Every other keyword (and a `$ref` to another document) is ignored: it accepts any value.
 *
 * The value is checked as its JSON: a property whose value is `undefined` (or a function) is
 * absent, an object with `toJSON` (a `Date`) is checked as what that answers, a number that is
 * not finite is `null`.
 *
 * @throws JsonSchemaCompileError for a `pattern` that is not a regular expression or a local
 *   `$ref` that points at nothing.
 */
export function compileJsonSchemaCheck(schema: unknown): JsonSchemaCheck {
  const root = new SchemaCompiler(schema).compile(schema, '#');
  return (value) => {
    const out: SchemaViolation[] = [];
    root(value, undefined, out);
    return out;
  };
}

class SchemaCompiler {
  private readonly refs = new Map<string, Node>();

  constructor(private readonly root: unknown) {}

  compile(schema: unknown, where: string): Node {
    if (schema === true || schema === undefined) return ANYTHING;
    if (schema === false) return (_value, at, out) => void out.push({ path: pathText(at), expected: 'is not allowed' });
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return ANYTHING;
    const s = schema as Schema;
    const checks: Node[] = [];
    const add = (node: Node | undefined): void => {
      if (node !== undefined && node !== ANYTHING) checks.push(node);
    };
    if (typeof s['$ref'] === 'string') add(this.ref(s['$ref']));
    add(typeCheck(s['type']));
    add(enumCheck(s));
    add(this.numberChecks(s));
    add(this.stringChecks(s, where));
    add(this.arrayChecks(s, where));
    add(this.objectChecks(s, where));
    add(this.combinators(s, where));
    if (checks.length === 0) return ANYTHING;
    if (checks.length === 1) {
      const only = checks[0]!;
      return (value, at, out) => only(asJson(value), at, out);
    }
    return (value, at, out) => {
      const json = asJson(value);
      for (const check of checks) check(json, at, out);
    };
  }

  /** A `$ref` into this document, compiled once (a recursive schema refers to itself). */
  private ref(ref: string): Node {
    if (!ref.startsWith('#')) return ANYTHING;
    const known = this.refs.get(ref);
    if (known) return known;
    let target: Node = ANYTHING;
    const node: Node = (value, at, out) => target(value, at, out);
    this.refs.set(ref, node);
    target = this.compile(resolvePointer(this.root, ref), ref);
    return node;
  }

  private numberChecks(s: Schema): Node | undefined {
    const bounds: Array<[(n: number) => boolean, string]> = [];
    const bound = (key: string, ok: (n: number, limit: number) => boolean, words: string): void => {
      const limit = s[key];
      if (typeof limit === 'number') bounds.push([(n) => ok(n, limit), `${words} ${limit}`]);
    };
    bound('minimum', (n, l) => n >= l, 'must be >=');
    bound('maximum', (n, l) => n <= l, 'must be <=');
    bound('exclusiveMinimum', (n, l) => n > l, 'must be >');
    bound('exclusiveMaximum', (n, l) => n < l, 'must be <');
    const multipleOf = s['multipleOf'];
    if (typeof multipleOf === 'number' && multipleOf > 0) {
      bounds.push([(n) => isMultiple(n, multipleOf), `must be a multiple of ${multipleOf}`]);
    }
    return keywordList(bounds, (value): value is number => typeof value === 'number');
  }

  private stringChecks(s: Schema, where: string): Node | undefined {
    const rules: Array<[(text: string) => boolean, string]> = [];
    const { minLength, maxLength, pattern, format } = s;
    if (typeof minLength === 'number') {
      rules.push([(text) => codePoints(text, minLength) >= minLength, `must have at least ${minLength} characters`]);
    }
    if (typeof maxLength === 'number') {
      rules.push([(text) => codePoints(text, maxLength + 1) <= maxLength, `must have at most ${maxLength} characters`]);
    }
    if (typeof pattern === 'string') {
      const regex = compilePattern(pattern, where);
      rules.push([(text) => regex.test(text), `must match the pattern ${pattern}`]);
    }
    if (typeof format === 'string') {
      const test = formatCheck(format);
      if (test) rules.push([test, `must be a valid ${format}`]);
    }
    return keywordList(rules, (value): value is string => typeof value === 'string');
  }

  private arrayChecks(s: Schema, where: string): Node | undefined {
    const checks: Node[] = [];
    const { minItems, maxItems, uniqueItems } = s;
    // draft-07 tuples: `items` as a list, `additionalItems` for the rest.
    const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : Array.isArray(s['items']) ? s['items'] : [];
    const rest = Array.isArray(s['items']) ? s['additionalItems'] : s['items'];
    const heads = prefix.map((item, i) => this.compile(item, `${where}/prefixItems/${i}`));
    const tail = this.compile(rest, `${where}/items`);
    if (heads.length > 0 || tail !== ANYTHING) {
      checks.push((value, at, out) => {
        const items = value as readonly unknown[];
        for (let i = 0; i < items.length; i++) {
          const node = i < heads.length ? heads[i]! : tail;
          if (node !== ANYTHING) node(arrayItem(items[i]), { up: at, key: i }, out);
        }
      });
    }
    if ('contains' in s) {
      const contains = this.compile(s['contains'], `${where}/contains`);
      const least = typeof s['minContains'] === 'number' ? s['minContains'] : 1;
      const most = typeof s['maxContains'] === 'number' ? s['maxContains'] : Infinity;
      checks.push((value, at, out) => {
        const count = (value as readonly unknown[]).filter((item) => passes(contains, arrayItem(item))).length;
        if (count < least || count > most) {
          out.push({ path: pathText(at), expected: `must contain ${rangeWords(least, most)} matching item(s)` });
        }
      });
    }
    const rules: Array<[(items: readonly unknown[]) => boolean, string]> = [];
    if (typeof minItems === 'number')
      rules.push([(items) => items.length >= minItems, `must have at least ${minItems} items`]);
    if (typeof maxItems === 'number')
      rules.push([(items) => items.length <= maxItems, `must have at most ${maxItems} items`]);
    if (uniqueItems === true) rules.push([allDistinct, 'must not have duplicate items']);
    const list = keywordList(rules, Array.isArray);
    if (list) checks.push(list);
    return onlyFor(Array.isArray, checks);
  }

  private objectChecks(s: Schema, where: string): Node | undefined {
    const checks: Node[] = [];
    const properties = isSchemaMap(s['properties']) ? s['properties'] : {};
    const names = Object.keys(properties);
    const own = names.map((name) => [name, this.compile(properties[name], `${where}/properties/${name}`)] as const);
    const patterns = Object.entries(isSchemaMap(s['patternProperties']) ? s['patternProperties'] : {}).map(
      ([pattern, sub]) => [compilePattern(pattern, where), this.compile(sub, `${where}/patternProperties`)] as const,
    );
    const additional = s['additionalProperties'];
    const extra = additional === undefined ? ANYTHING : this.compile(additional, `${where}/additionalProperties`);
    const keyNode = this.compile(s['propertyNames'], `${where}/propertyNames`);
    const required = Array.isArray(s['required']) ? s['required'].filter((r) => typeof r === 'string') : [];
    if (required.length > 0) {
      checks.push((value, at, out) => {
        const object = value as Record<string, unknown>;
        for (const name of required) {
          if (!present(object, name)) out.push({ path: pathText({ up: at, key: name }), expected: 'is required' });
        }
      });
    }
    const known = new Set(names);
    const everyKey = patterns.length > 0 || extra !== ANYTHING || keyNode !== ANYTHING;
    const named = own.filter(([, node]) => node !== ANYTHING);
    if (named.length > 0 && !everyKey) {
      checks.push((value, at, out) => {
        const object = value as Record<string, unknown>;
        for (const [name, node] of named) {
          if (present(object, name)) node(object[name], { up: at, key: name }, out);
        }
      });
    } else if (everyKey) {
      const byName = new Map(own);
      checks.push((value, at, out) => {
        const object = value as Record<string, unknown>;
        for (const key of Object.keys(object)) {
          if (!present(object, key)) continue;
          const path: PathLink = { up: at, key };
          if (keyNode !== ANYTHING) keyNode(key, path, out);
          const node = byName.get(key);
          if (node !== undefined && node !== ANYTHING) node(object[key], path, out);
          let matched = known.has(key);
          for (const [regex, sub] of patterns) {
            if (!regex.test(key)) continue;
            matched = true;
            sub(object[key], path, out);
          }
          if (!matched && extra !== ANYTHING) extra(object[key], path, out);
        }
      });
    }
    const { minProperties, maxProperties } = s;
    const rules: Array<[(object: Record<string, unknown>) => boolean, string]> = [];
    if (typeof minProperties === 'number') {
      rules.push([(object) => presentCount(object) >= minProperties, `must have at least ${minProperties} properties`]);
    }
    if (typeof maxProperties === 'number') {
      rules.push([(object) => presentCount(object) <= maxProperties, `must have at most ${maxProperties} properties`]);
    }
    const list = keywordList(rules, isObject);
    if (list) checks.push(list);
    return onlyFor(isObject, checks);
  }

  private combinators(s: Schema, where: string): Node | undefined {
    const checks: Node[] = [];
    const branches = (key: string): Node[] | undefined =>
      Array.isArray(s[key])
        ? (s[key] as unknown[]).map((sub, i) => this.compile(sub, `${where}/${key}/${i}`))
        : undefined;
    const allOf = branches('allOf');
    if (allOf) checks.push((value, at, out) => allOf.forEach((node) => node(value, at, out)));
    const anyOf = branches('anyOf');
    if (anyOf) {
      const expected = alternatives(s['anyOf'] as unknown[], 'anyOf');
      checks.push((value, at, out) => {
        if (!anyOf.some((node) => passes(node, value))) out.push({ path: pathText(at), expected });
      });
    }
    const oneOf = branches('oneOf');
    if (oneOf) {
      const expected = alternatives(s['oneOf'] as unknown[], 'oneOf');
      checks.push((value, at, out) => {
        const matches = oneOf.filter((node) => passes(node, value)).length;
        if (matches === 0) out.push({ path: pathText(at), expected });
        else if (matches > 1)
          out.push({ path: pathText(at), expected: `must match exactly one schema of oneOf, not ${matches}` });
      });
    }
    if ('not' in s) {
      const not = this.compile(s['not'], `${where}/not`);
      checks.push((value, at, out) => {
        if (passes(not, value)) out.push({ path: pathText(at), expected: 'must not match the schema under not' });
      });
    }
    if ('if' in s) {
      const test = this.compile(s['if'], `${where}/if`);
      const then = this.compile(s['then'], `${where}/then`);
      const otherwise = this.compile(s['else'], `${where}/else`);
      checks.push((value, at, out) => (passes(test, value) ? then : otherwise)(value, at, out));
    }
    return checks.length === 0 ? undefined : all(checks);
  }
}
