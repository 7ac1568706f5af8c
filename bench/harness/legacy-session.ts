/**
 * Opens a 2025-era session the way a 2025 client does, once, before any load: `initialize`
 * (no `_meta` envelope), then `notifications/initialized` with the session id the server gave.
 * A server that answers `initialize` without an `Mcp-Session-Id` serves the 2025 era without
 * sessions (the SDK's default stateless legacy leg): its later requests go without the header.
 */
import { LEGACY_INITIALIZE_PARAMS, LEGACY_PROTOCOL_VERSION } from '../shared/bench-spec.js';
import { post } from './http-client.js';

const ACCEPT = 'application/json, text/event-stream';

export interface LegacySession {
  /** The headers of every request after `initialize`, with `mcp-session-id` when the server issued one. */
  readonly headers: Readonly<Record<string, string>>;
  /** The `Mcp-Session-Id`, or undefined when the server serves 2025-era clients without sessions. */
  readonly sessionId?: string;
}

/** Opens a session on `url`; throws with what was wrong when the server does not complete the handshake. */
export async function openLegacySession(url: string): Promise<LegacySession> {
  const init = await post(
    url,
    { 'content-type': 'application/json', accept: ACCEPT },
    JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: LEGACY_INITIALIZE_PARAMS }),
  );
  const answer = init.message as
    { id?: unknown; result?: { protocolVersion?: unknown }; error?: { message?: unknown } } | undefined;
  if (init.status !== 200 || answer?.id !== 0 || typeof answer.result !== 'object') {
    throw new Error(`initialize: HTTP ${init.status}, body ${init.raw.slice(0, 300)}`);
  }
  if (answer.result.protocolVersion !== LEGACY_PROTOCOL_VERSION) {
    throw new Error(
      `initialize negotiated ${String(answer.result.protocolVersion)}, expected ${LEGACY_PROTOCOL_VERSION}`,
    );
  }
  const header = init.headers['mcp-session-id'];
  const sessionId = typeof header === 'string' && header.length > 0 ? header : undefined;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-protocol-version': LEGACY_PROTOCOL_VERSION,
    ...(sessionId !== undefined && { 'mcp-session-id': sessionId }),
  };
  const initialized = await post(url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  if (initialized.status !== 202) {
    throw new Error(
      `notifications/initialized: HTTP ${initialized.status} (expected 202), body ${initialized.raw.slice(0, 300)}`,
    );
  }
  return { headers, sessionId };
}

/** What the table notes about a server whose legacy leg issued no session. */
export const SESSIONLESS_NOTE = 'no session: initialize returned no Mcp-Session-Id, requests sent without one';
