/**
 * Whether two values are the same JSON value (JSON Schema's equality, for `enum`, `const` and
 * `uniqueItems`): equal primitives, arrays equal item by item, objects with the same keys holding
 * equal values, whatever the order of the keys. A property whose value is `undefined` counts as
 * absent, as in JSON.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = definedKeys(a as Record<string, unknown>);
  const right = b as Record<string, unknown>;
  if (left.length !== definedKeys(right).length) return false;
  return left.every((key) => Object.hasOwn(right, key) && jsonEqual((a as Record<string, unknown>)[key], right[key]));
}

function definedKeys(object: Record<string, unknown>): string[] {
  return Object.keys(object).filter((key) => object[key] !== undefined);
}
