// The stream-holding client of bench/idle-streams.ts, in its own process so that its thousands of
// sockets do not slow the client that measures latency. It opens idle streams in batches, each
// counted open once its first event arrived, reports over IPC, and holds them until told to close.
import { Agent, request, type ClientRequest } from 'node:http';
import { envelope, mcpHeaders, post } from '../../test/support/raw-mcp.js';

export type HolderMode = 'listen' | 'legacy';

const LEGACY_VERSION = '2025-11-25';
const BATCH = 200;
/** One stream that never shows its first event fails the run rather than hang it. */
const FIRST_EVENT_MS = 30_000;

const streamAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
const setupAgent = new Agent({ keepAlive: true, maxSockets: 50 });
const held: ClientRequest[] = [];
let lost = 0;

/** Sends `body` and resolves with the response once its first chunk containing `marker` arrived. */
function openStream(
  url: string,
  method: 'POST' | 'GET',
  headers: Record<string, string>,
  marker: string,
  body?: string,
) {
  return new Promise<void>((resolve, reject) => {
    let open = false;
    const timer = setTimeout(() => reject(new Error(`no first event within ${FIRST_EVENT_MS} ms`)), FIRST_EVENT_MS);
    const req = request(url, { method, headers, agent: streamAgent }, (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        return reject(new Error(`${method} stream answered ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!open && chunk.includes(marker)) {
          open = true;
          clearTimeout(timer);
          resolve();
        }
      });
      // The server ended a stream we still hold: counted, so the run says so.
      res.on('close', () => {
        if (open && !closing) lost++;
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      if (!open) reject(error);
    });
    held.push(req);
    req.end(body);
  });
}

const postJson = (url: string, body: unknown, headers: Record<string, string>) =>
  post(url, body, headers, { agent: setupAgent });

let nextId = 1;

function listen(url: string): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: envelope() },
  });
  return openStream(url, 'POST', mcpHeaders('subscriptions/listen'), 'acknowledged', body);
}

/** initialize + notifications/initialized, then the session's GET stream (its first event is a comment). */
async function legacySession(url: string): Promise<void> {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await postJson(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'idle-streams', version: '1' } },
    },
    base,
  );
  const sessionId = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sessionId !== 'string') throw new Error(`initialize answered ${init.status}`);
  const session = { 'mcp-protocol-version': LEGACY_VERSION, 'mcp-session-id': sessionId };
  const initialized = await postJson(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { ...base, ...session },
  );
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  await openStream(url, 'GET', { accept: 'text/event-stream', ...session }, 'stream open');
}

let closing = false;

export async function hold(mode: HolderMode, url: string, count: number): Promise<void> {
  process.on('message', (ask: { op: 'lost' | 'close' }) => {
    if (ask.op === 'lost') process.send!({ lost });
    if (ask.op === 'close') {
      closing = true;
      for (const req of held) req.destroy();
      streamAgent.destroy();
      setupAgent.destroy();
      process.send!({ closed: held.length });
    }
  });
  process.on('disconnect', () => process.exit(0));
  const open = mode === 'listen' ? () => listen(url) : () => legacySession(url);
  const started = Date.now();
  try {
    for (let i = 0; i < count; i += BATCH) {
      await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, open));
    }
    setupAgent.destroy();
    process.send!({ opened: count, ms: Date.now() - started });
  } catch (error) {
    process.send!({ error: String(error) });
  }
}
