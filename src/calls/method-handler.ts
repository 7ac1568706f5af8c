import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import type { McpInbound } from './mcp-inbound.js';
import type { ResultCache } from './result-stamp.js';

/**
 * Answers one JSON-RPC method with its result, unstamped (the 2026-07-28 leg stamps it, the
 * 2025-era leg sends it as it is), or throws McpError.
 */
export type MethodHandler = (exchange: McpExchange, inbound: McpInbound) => Promise<MethodResult> | MethodResult;

/** A method's result object (CallToolResult, a list page, an input-required round, ...). */
export type MethodResult = object;

/** Whether a method's result is an input-required round (the call asked a question). */
export function isInputRound(result: MethodResult): boolean {
  return (result as { resultType?: unknown }).resultType === 'input_required';
}

/** A group of methods behind one server capability (absent capability → the methods are unknown). */
export interface McpMethodGroup {
  /** Whether the capability is advertised right now (e.g. at least one tool is registered). */
  enabled(): boolean;
  readonly methods: Readonly<Record<string, MethodHandler>>;
  /**
   * For an integration's group: the `path` of the server it belongs to (undefined: the global
   * server). Other servers of the application do not answer its methods.
   */
  readonly server?: string;
  /** The methods whose complete results a client may cache (lists, reads): the 2026-07-28 leg adds the cache hints. */
  readonly cacheable?: readonly string[];
  /** The cache hints of those results, when not the server's `cache` option (e.g. the skills' own). */
  readonly cache?: ResultCache;
  /** Adds this group's entry to the capabilities server/discover advertises (only called when enabled). */
  contribute?(capabilities: ServerCapabilities): void;
}

/** The injection token of every method group but server/discover itself. */
export const MCP_METHOD_GROUPS = Symbol('mocapi:method-groups');
