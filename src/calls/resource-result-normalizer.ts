import type { ReadResourceResult, ResourceContents } from '../protocol/wire-types.js';

const isContents = (value: unknown): value is ResourceContents =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ResourceContents).uri === 'string' &&
  ('text' in value || 'blob' in value);

/**
 * A resource handler's return value as a ReadResourceResult: a string is text, bytes are a base64
 * blob, contents pass through, any other object is JSON text.
 */
export function toReadResourceResult(value: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (typeof value === 'string') return { contents: [{ uri, ...(mimeType && { mimeType }), text: value }] };
  if (value instanceof Uint8Array) {
    return { contents: [{ uri, ...(mimeType && { mimeType }), blob: Buffer.from(value).toString('base64') }] };
  }
  if (isContents(value)) return { contents: [value] };
  if (Array.isArray(value) && value.every(isContents)) return { contents: value };
  if (typeof value === 'object' && value !== null && Array.isArray((value as ReadResourceResult).contents))
    return value as ReadResourceResult;
  if (value === undefined || value === null) throw new TypeError(`The resource handler for ${uri} returned nothing`);
  return { contents: [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value) }] };
}
