import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/json-rpc.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { LegacySessionClaims } from './legacy-session.js';
import type { LegacySessionState } from './legacy-session-state.js';

/** A 2025-era session as one request sees it: what `initialize` sealed, and this node's mutable state. */
export interface LegacySession {
  readonly claims: LegacySessionClaims;
  readonly state: LegacySessionState;
}

/**
 * How a transport carries one 2025-era request's traffic back to the client: its notifications and,
 * where the transport can, server-to-client requests (the POST's SSE stream, or the stdio output).
 */
export interface LegacyChannel {
  readonly transport: McpTransportInfo;
  /** Aborted when the client goes away before the answer is written. */
  readonly signal: AbortSignal;
  /** A promise while the client is behind: it settles once the client caught up. */
  notify(notification: JsonRpcNotification): void | Promise<void>;
  /** False when the client cannot receive requests here (an HTTP POST that accepts only JSON). */
  readonly canRequest: boolean;
  request(request: JsonRpcRequest): void | Promise<void>;
}
