/** Values made by {@link frozenJson}: deeply frozen JSON, safe to share with every reader. */
const sealed = new WeakSet<object>();

/**
 * A deeply frozen JSON copy of `value` that reuses every part already made by this function: a
 * changed task record (`{ ...record, status }`) costs O(what changed), not O(its arguments). Parts
 * from elsewhere (a handler's result) are copied, never frozen in place, so the caller's objects
 * stay theirs; what JSON cannot carry is dropped or converted as `JSON.stringify` would.
 */
export function frozenJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (sealed.has(value)) return value;
  const copy = isPlain(value) ? copyPlain(value) : jsonCopy(value);
  if (copy !== null && typeof copy === 'object') deepFreeze(copy);
  return copy as T;
}

function copyPlain(value: object): object {
  if (Array.isArray(value)) return value.map((item: unknown) => (item === undefined ? null : frozenJson(item)));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function') continue;
    // An own "__proto__" key (JSON.parse makes them) must stay a key, not become the prototype.
    Object.defineProperty(copy, key, { value: frozenJson(item), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
}

function jsonCopy(value: unknown): unknown {
  const json = JSON.stringify(value);
  return json === undefined ? null : (JSON.parse(json) as unknown);
}

/** Freezes `value` and every object inside it not yet sealed, and seals them. */
function deepFreeze(value: object): void {
  if (sealed.has(value)) return;
  for (const item of Object.values(value)) if (item !== null && typeof item === 'object') deepFreeze(item);
  Object.freeze(value);
  sealed.add(value);
}

/** Parses JSON into a deeply frozen value in place (no second copy): what a shared store reads back. */
export function frozenParse<T>(json: string): T {
  const value = JSON.parse(json) as unknown;
  if (value !== null && typeof value === 'object') deepFreeze(value);
  return value as T;
}
