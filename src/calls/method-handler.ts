import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import type { McpInbound } from './mcp-inbound.js';

/** Answers one JSON-RPC method with a stamped result object, or throws McpError. */
export type MethodHandler = (
  exchange: McpExchange,
  inbound: McpInbound,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

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
  /** Adds this group's entry to the capabilities server/discover advertises (only called when enabled). */
  contribute?(capabilities: ServerCapabilities): void;
}

/** The injection token of every method group but server/discover itself. */
export const MCP_METHOD_GROUPS = Symbol('mocapi:method-groups');
