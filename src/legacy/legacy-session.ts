import type { ClientCapabilities, Implementation } from '../protocol/wire-types.js';

/**
 * What a 2025-era session id says once opened: everything `initialize` settled, sealed into the id
 * itself, so any node recognizes the session without shared memory.
 */
export interface LegacySessionClaims {
  /** A random id naming the session's per-node state (log level, subscriptions, streams). */
  readonly id: string;
  /** The negotiated 2025-era revision. */
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  /** Who opened the session (`McpPrincipalSource`); every later request must come from them. */
  readonly principal: string | null;
  /** When `initialize` was answered (ms epoch). */
  readonly issuedAt: number;
}
