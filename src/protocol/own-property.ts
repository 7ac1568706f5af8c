/**
 * What `record` holds under `key` as its own property, or undefined. A key a client chose (an answer
 * key, an argument name) must never find what every object inherits: `constructor`, `toString`,
 * `__proto__` and the like are absent keys, not `Object`, a function or `Object.prototype`.
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `value` as the own property `key` of `record` (enumerable, writable, as an assignment would):
 * a key `__proto__` stays a key instead of replacing the object's prototype.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
