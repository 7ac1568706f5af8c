import { isObject } from './json-schema-values.js';

// The words a JSON Schema violation is written in: what was expected, never the value.

export const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

/** What a failed anyOf/oneOf expected: the branches' types when each states one, else how many. */
export function alternatives(branches: readonly unknown[], keyword: string): string {
  const types = branches.map((branch) => (isObject(branch) ? branch['type'] : undefined));
  if (types.length > 0 && types.every((t) => typeof t === 'string' && TYPE_WORDS[t] !== undefined)) {
    return `must be ${[...new Set(types as string[])].map((t) => TYPE_WORDS[t]).join(' or ')}`;
  }
  return `must match ${keyword === 'oneOf' ? 'exactly' : 'at least'} one of the ${branches.length} schemas of ${keyword}`;
}

export function rangeWords(least: number, most: number): string {
  if (most === Infinity) return `at least ${least}`;
  return least === most ? `exactly ${least}` : `${least} to ${most}`;
}

export const MAX_LISTED = 10;

export function listText(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED).map(valueText).join(', ');
  return values.length > MAX_LISTED ? `${shown}, … (${values.length} values)` : shown;
}

/** A value of the schema (an enum member, a const) as text, cut when long. */
export function valueText(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
