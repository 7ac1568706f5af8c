/** A JSON object: not null, not an array. What every `params`, `_meta` and answer must be. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
