// The checks of RequestedSchemaBuilder's field options (each throws on a value no client could
// satisfy) and the copy of a field definition it hands out.

/** The formats a string field may carry (`RequestedSchemaBuilder.StringFieldFormat`). */
export const STRING_FORMATS: ReadonlySet<string> = new Set<string>(['email', 'uri', 'date', 'date-time']);

/**
 * A copy of a field definition (plain objects, arrays and primitives only, as the builder makes
 * them): far cheaper than `structuredClone`, and this runs every time a handler asks its question.
 */
export function copyJson<V>(value: V): V {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as V;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyJson((value as Record<string, unknown>)[key]);
  return out as V;
}

export function count(value: number | undefined, option: string, name: string): number | undefined {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
    throw new Error(`Field "${name}": ${option} must be a non-negative integer`);
  }
  return value;
}

export function finite(value: number | undefined, option: string, name: string): number | undefined {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw new Error(`Field "${name}": ${option} must be a finite number`);
  }
  return value;
}

export function ordered(
  min: number | undefined,
  max: number | undefined,
  minName: string,
  maxName: string,
  name: string,
): void {
  if (min !== undefined && max !== undefined && min > max) {
    throw new Error(`Field "${name}": ${minName} is larger than ${maxName}`);
  }
}
