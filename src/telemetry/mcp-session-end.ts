/**
 * A 2025-era session that ended on this node, as observers see it (`sessionEnded`): over HTTP when
 * the client DELETEs it here, or when this node shuts down while it holds the session's state (a
 * session already past its lifetime then counts as ended at its expiry); over stdio when the
 * connection closes. 2026-07-28 has no sessions.
 *
 * @publicApi
 */
export interface McpSessionEnd {
  /** The session's internal id (from its sealed claims, never the token). */
  readonly sessionId: string;
  readonly transport: 'http' | 'stdio';
  /** The negotiated 2025-era revision. */
  readonly protocolVersion: string;
  /** When the session was issued (`initialize` answered), ms since the epoch. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** Set when the session ended in error (e.g. `EPIPE` when a stdio client vanished). */
  readonly errorType?: string;
}
