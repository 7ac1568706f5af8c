import { hash } from 'node:crypto';

/**
 * Serialises a JSON value the RFC 8785 (JCS) way: object keys sorted by UTF-16 code units,
 * ECMAScript number formatting, no whitespace. Fingerprints and argument digests are hashed over
 * this text, so two structurally equal values always hash alike whatever their key order.
 *
 * Follows `JSON.stringify` for what JSON cannot hold: `toJSON()` is honoured, object members whose
 * value is `undefined`, a function or a symbol are left out, and such array items become `null`.
 * Lone surrogates are written as `\uXXXX` escapes (as `JSON.stringify` does) rather than rejected,
 * so any value a client sent can still be digested.
 *
 * @throws TypeError on a non-finite number, a bigint or a cycle.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

/** SHA-256 of the UTF-8 text, base64url without padding (43 characters). */
export function sha256Base64url(text: string): string {
  // The one-shot form: half the cost of createHash().update().digest() for inputs this small.
  return hash('sha256', text, 'base64url');
}

// Built by string concatenation (V8 ropes), which allocates far less than collecting parts in an
// array and joining them: this runs on every retry (argument digest, question fingerprints).
function write(value: unknown, ancestors: Set<object>): string {
  const json = toJsonValue(value);
  switch (typeof json) {
    case 'string':
      return JSON.stringify(json);
    case 'number':
      if (!Number.isFinite(json)) throw new TypeError(`canonicalJson: ${json} is not a JSON number`);
      // ECMAScript Number::toString is exactly what RFC 8785 §3.2.2.3 prescribes; -0 becomes "0".
      return JSON.stringify(json);
    case 'boolean':
      return json ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: a bigint is not a JSON number');
    case 'object': {
      if (json === null) return 'null';
      if (ancestors.has(json)) throw new TypeError('canonicalJson: the value contains a cycle');
      ancestors.add(json);
      const text = Array.isArray(json)
        ? writeArray(json, ancestors)
        : writeObject(json as Record<string, unknown>, ancestors);
      ancestors.delete(json);
      return text;
    }
    default:
      // undefined, function, symbol at the top level: JSON has no spelling for them.
      return 'null';
  }
}

function writeArray(items: readonly unknown[], ancestors: Set<object>): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += write(omittable(items[i]) ? null : items[i], ancestors);
  }
  return out + ']';
}

function writeObject(obj: Record<string, unknown>, ancestors: Set<object>): string {
  // The default sort compares UTF-16 code units, which is the order RFC 8785 §3.2.3 asks for.
  const keys = Object.keys(obj).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = obj[key];
    if (omittable(member)) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(key) + ':' + write(member, ancestors);
  }
  return out + '}';
}

function toJsonValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(): unknown }).toJSON();
  }
  return value;
}

function omittable(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
