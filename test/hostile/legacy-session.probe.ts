/** Wire-level probes of what a node keeps of a 2025-era session (the legacy-bounds specs). */
import { request } from 'node:http';
import { post } from '../support/raw-mcp.js';
import { LegacyWire } from '../legacy/legacy-wire.js';

/** One request with an id of our choosing, in the wire's session. */
export function call(wire: LegacyWire, id: string | number, method: string, params: Record<string, unknown> = {}) {
  return post(wire.url, { jsonrpc: '2.0', id, method, params }, wire.headers());
}

/** A session of `user` (anonymous without one) subscribed to one resource: state the node must keep. */
export async function sessionWithState(url: string, user: string | undefined): Promise<LegacyWire> {
  const wire = await LegacyWire.open(url, { elicitation: {} }, user === undefined ? {} : { 'x-user': user });
  const r = await call(wire, 'sub', 'resources/subscribe', { uri: 'legacy://note' });
  expect(r.json).toEqual({ jsonrpc: '2.0', id: 'sub', result: {} });
  return wire;
}

/**
 * What the node remembers of such a session, asked on the wire: a second subscription past the
 * bound of one is refused while the first is kept; a blank state would accept it; 404 is the
 * honest answer for a state that is gone.
 */
export async function stateIn(wire: LegacyWire): Promise<'kept' | 'gone' | 'blank' | string> {
  const r = await call(wire, 'probe', 'resources/subscribe', { uri: 'legacy://second' });
  if (r.status === 404 && r.json.id === 'probe') return 'gone';
  if (r.json?.error?.data?.limit === 'maxSubscriptionsPerSession') return 'kept';
  if (r.json?.result !== undefined) return 'blank';
  return `unexpected ${r.status} ${r.text}`;
}

/** Opens the session's GET stream (which keeps its state busy); resolves with the status and a way to close it. */
export function openGetStream(wire: LegacyWire): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(wire.url, { method: 'GET', headers: wire.headers({ accept: 'text/event-stream' }) });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}
