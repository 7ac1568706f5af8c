import { isJsonObject } from './is-json-object.js';
import { McpMethod } from './mcp-methods.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from './meta-keys.js';
import { isModernProtocolVersion } from './protocol-version.js';

/**
 * The two generations of MCP a dual-era endpoint serves: `modern` (2026-07-28: stateless, the
 * `_meta` envelope on every request) and `legacy` (2025-era: `initialize`, sessions, server-to-client
 * requests).
 *
 * @publicApi
 */
export type McpProtocolEra = 'modern' | 'legacy';

/** Methods that exist only in 2026-07-28: a request for them is never a 2025-era request. */
const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set([McpMethod.Discover, McpMethod.SubscriptionsListen]);

/** Whether `method` exists only in 2026-07-28 (a 2025-era session that calls it gets -32601). */
export function isModernOnlyMethod(method: string): boolean {
  return MODERN_ONLY_METHODS.has(method);
}

/**
 * Decides which era one incoming JSON-RPC message belongs to, before anything else reads it.
 *
 * - A request whose `params._meta` carries the modern envelope (the protocol-version claim, or the
 *   client-capabilities key beside a missing claim) is modern, and so is one whose
 *   `MCP-Protocol-Version` header names a modern revision, or that calls a modern-only method: the
 *   modern path answers their envelope errors (-32602) itself.
 * - `initialize` without the claim, every other claim-less request or notification, and JSON-RPC
 *   responses posted by the client are legacy.
 * - Anything that is not a JSON-RPC message goes the modern way, which refuses it (-32600).
 */
export function classifyEra(message: unknown, protocolVersionHeader?: string): McpProtocolEra {
  if (!isJsonObject(message) || message['jsonrpc'] !== '2.0') return 'modern';
  const method = message['method'];
  if (method === undefined) return 'id' in message && ('result' in message || 'error' in message) ? 'legacy' : 'modern';
  if (typeof method !== 'string') return 'modern';
  if (hasModernEnvelope(message['params'])) return 'modern';
  if (method === 'initialize') return 'legacy';
  if (isModernOnlyMethod(method)) return 'modern';
  const header = protocolVersionHeader?.trim();
  if (header && isModernProtocolVersion(header)) return 'modern';
  return 'legacy';
}

function hasModernEnvelope(params: unknown): boolean {
  if (!isJsonObject(params)) return false;
  const meta = params['_meta'];
  return isJsonObject(meta) && (META_PROTOCOL_VERSION in meta || META_CLIENT_CAPABILITIES in meta);
}
