import type { InputRequest } from '../protocol/wire-types.js';
import { canonicalJson, sha256Base64url } from './canonical-json.js';

/** How many distinct questions the process remembers the fingerprint of. */
const CACHE_ENTRIES = 1024;
/** Longer questions (a sampling request with a long conversation) are fingerprinted every time. */
const CACHE_MAX_CHARS = 4096;

/** Question text as `JSON.stringify` writes it → its fingerprint; insertion order is the eviction order. */
const cache = new Map<string, string>();

/**
 * The fingerprint the ledger records for a question: SHA-256 (base64url) over the RFC 8785
 * canonical JSON of the request as it goes on the wire. A handler asks the same questions on every
 * replay, so the fingerprint of a question is remembered, keyed by its `JSON.stringify` text:
 * equal text means an equal question, whose canonical form and hash are the same. Text with a
 * `null` in it is never cached, because `JSON.stringify` also writes `NaN` and `Infinity` as
 * `null`, which {@link canonicalJson} refuses.
 */
export function questionFingerprint(request: InputRequest): string {
  const text = JSON.stringify(request);
  const known = cache.get(text);
  if (known !== undefined) return known;
  const fingerprint = sha256Base64url(canonicalJson(request));
  if (text.length <= CACHE_MAX_CHARS && !text.includes('null')) {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(text, fingerprint);
  }
  return fingerprint;
}
