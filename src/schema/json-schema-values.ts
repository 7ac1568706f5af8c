import { jsonEqual } from './json-equal.js';

// How the JSON Schema check reads a value: as its JSON would hold it.

/** A value as JSON holds it: what `toJSON` answers, `null` for a number that is not finite. */
export function asJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

/** An array item as JSON holds it: `undefined`, a function or a symbol becomes `null`. */
export function arrayItem(item: unknown): unknown {
  return item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item;
}

/** Whether JSON would keep the property: an own enumerable key whose value is not `undefined`, a function or a symbol. */
export function present(object: Record<string, unknown>, key: string): boolean {
  if (!Object.prototype.propertyIsEnumerable.call(object, key)) return false;
  const value = object[key];
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

export function presentCount(object: Record<string, unknown>): number {
  return Object.keys(object).filter((key) => present(object, key)).length;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isSchemaMap(value: unknown): value is Record<string, unknown> {
  return isObject(value);
}

export function allDistinct(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) if (jsonEqual(items[i], items[j])) return false;
  }
  return true;
}

export function isMultiple(n: number, of: number): boolean {
  const quotient = n / of;
  return Number.isInteger(quotient) || Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

/** The length of `text` in code points, counted up to `enough` (past it, the exact count does not matter). */
export function codePoints(text: string, enough: number): number {
  if (text.length < enough) return text.length; // code points never outnumber UTF-16 units
  let count = 0;
  for (const _ of text) if (++count >= enough) return count;
  return count;
}
