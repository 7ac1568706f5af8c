import type { IncomingHttpHeaders } from 'node:http';
import type { McpHeaderParam } from '../../schema/dto-json-schema.js';
import { McpError } from '../../protocol/mcp.error.js';
import { MRTR_METHODS, TASK_METHODS } from '../../protocol/mcp-methods.js';

const BASE64_VALUE = /^=\?base64\?(.*)\?=$/;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header value as the spec compares it: trimmed, and decoded from the `=?base64?…?=` form. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  if (raw === undefined) return undefined;
  const value = (Array.isArray(raw) ? raw.join(',') : raw).trim();
  // Most values are plain: only one starting like the encoded form goes through the pattern.
  if (!value.startsWith('=?')) return value;
  const encoded = BASE64_VALUE.exec(value);
  if (!encoded) return value;
  if (!STRICT_BASE64.test(encoded[1]!)) throw McpError.headerMismatch(`Header ${name} is not valid padded base64`);
  const decoded = Buffer.from(encoded[1]!, 'base64');
  const text = decoded.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(decoded) === false)
    throw McpError.headerMismatch(`Header ${name} is not valid base64-encoded UTF-8`);
  return text;
}

function expectHeader(headers: IncomingHttpHeaders, name: string, label: string, expected: string): void {
  const actual = headerValue(headers, name);
  if (actual === undefined) throw McpError.headerMismatch(`Missing required header ${label}`);
  if (actual !== expected) throw McpError.headerMismatch(`Header ${label} does not match the request body`);
}

/**
 * SEP-2243: `MCP-Protocol-Version`, `Mcp-Method` and (for tools/call, prompts/get and
 * resources/read, and the task id of tasks/get, tasks/update and tasks/cancel, SEP-2663) `Mcp-Name`
 * must be present and agree with the body, else -32020 with HTTP 400.
 */
export function verifyRequestHeaders(
  headers: IncomingHttpHeaders,
  method: string,
  params: Readonly<Record<string, unknown>>,
  protocolVersion: string,
): void {
  expectHeader(headers, 'mcp-protocol-version', 'MCP-Protocol-Version', protocolVersion);
  expectHeader(headers, 'mcp-method', 'Mcp-Method', method);
  if (MRTR_METHODS.has(method)) {
    const name = params['name'] ?? params['uri'];
    if (typeof name === 'string') expectHeader(headers, 'mcp-name', 'Mcp-Name', name);
  } else if (TASK_METHODS.has(method) && typeof params['taskId'] === 'string') {
    expectHeader(headers, 'mcp-name', 'Mcp-Name', params['taskId']);
  }
}

/**
 * The text a client mirrors for an argument (SEP-2243): a string as it is, an integer in decimal, a
 * boolean as `true` or `false`. Undefined for anything else (an object, an array, a number JSON
 * cannot carry): no header can mirror such a value. Never calls a conversion a client's object may
 * define (`toString`, `valueOf`, `Symbol.toPrimitive`), so `{"toString":1}` or `{}` cannot throw,
 * or pass as `[object Object]`, and `["eu"]` cannot pass as `eu`.
 */
function mirroredText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    default:
      return undefined;
  }
}

/**
 * `Mcp-Param-{Name}` must mirror every argument its tool marks with `x-mcp-header`. An argument no
 * header can carry (see {@link mirroredText}) is a mismatch too: -32020 with HTTP 400, as for a
 * missing or different header.
 */
export function verifyParamHeaders(
  headers: IncomingHttpHeaders,
  headerParams: readonly McpHeaderParam[],
  args: Readonly<Record<string, unknown>>,
): void {
  for (const { property, header } of headerParams) {
    const label = `Mcp-Param-${header}`;
    const actual = headerValue(headers, label.toLowerCase());
    // Only the client's own properties: an absent `valueOf` is absent, not Object.prototype's.
    const value = Object.hasOwn(args, property) ? args[property] : undefined;
    if (value === undefined || value === null) {
      if (actual !== undefined)
        throw McpError.headerMismatch(`Header ${label} is set but argument ${property} is absent`);
      continue;
    }
    const expected = mirroredText(value);
    if (expected === undefined) {
      throw McpError.headerMismatch(
        `Argument ${property} cannot be mirrored in header ${label}: send a string, an integer or a boolean`,
      );
    }
    if (actual === undefined) throw McpError.headerMismatch(`Missing required header ${label}`);
    if (actual !== expected) throw McpError.headerMismatch(`Header ${label} does not match argument ${property}`);
  }
}
