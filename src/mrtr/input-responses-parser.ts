import { McpError } from '../protocol/mcp.error.js';

/**
 * Checks the `inputResponses` of a retry before anything else looks at it: absent (`undefined` /
 * `null`) or an object whose every value is an object. Anything else is protocol garbage the spec
 * says to answer with an error (`-32602`), not with another round.
 */
export function parseInputResponses(raw: unknown): Record<string, Record<string, unknown>> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw) || !Object.values(raw).every(isPlainObject)) {
    throw McpError.invalidParams('inputResponses must be an object whose values are objects', {
      reason: 'malformed_input_responses',
    });
  }
  return raw as Record<string, Record<string, unknown>>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
