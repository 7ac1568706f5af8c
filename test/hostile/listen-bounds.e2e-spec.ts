import { request, type IncomingMessage } from 'node:http';
import { McpRegistrar } from '../../src/index.js';
import { legacyModule } from '../legacy/legacy.fixtures.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { openSse } from '../support/sse-stream.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';

const MAX_ENTRIES = 5;
const MAX_URI = 40;

const listenBody = (id: string, notifications: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'subscriptions/listen',
  params: { notifications, _meta: envelope({ extensions: { 'io.modelcontextprotocol/tasks': {} } }) },
});

const uri = (i: number, length = 20) => `test://r/${String(i).padStart(length - 9, '0')}`;

/** A 2025-era GET stream read as text; `ended` settles when the server closes it. */
function openGet(wire: LegacyWire): Promise<{ res: IncomingMessage; text: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request(wire.url, { method: 'GET', headers: wire.headers({ accept: 'text/event-stream' }) });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise<void>((done) => res.once('close', done));
      resolve({ res, text: () => text, ended });
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(ADAPTERS)('Bounded listen filters and one GET stream per session (%s)', (adapter) => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startApp(
      legacyModule({ limits: { maxListenFilterEntries: MAX_ENTRIES, maxUriLength: MAX_URI } }),
      adapter,
    );
  });
  afterAll(() => server.close());

  it('refuses more resourceSubscriptions than limits.maxListenFilterEntries: -32602 with the id, HTTP 400', async () => {
    const uris = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => uri(i));
    const r = await post(
      server.url,
      listenBody('too-many', { resourceSubscriptions: uris }),
      mcpHeaders('subscriptions/listen'),
    );
    expect(r.status).toBe(400);
    expect(r.json.id).toBe('too-many');
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.message).toContain('maxListenFilterEntries');
    expect(r.json.error.data).toEqual({ limit: 'maxListenFilterEntries', max: MAX_ENTRIES });
  });

  it('refuses more taskIds than limits.maxListenFilterEntries', async () => {
    const ids = Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => `task-${i}`);
    const r = await post(server.url, listenBody('tasks', { taskIds: ids }), mcpHeaders('subscriptions/listen'));
    expect(r.status).toBe(400);
    expect(r.json.id).toBe('tasks');
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.data).toEqual({ limit: 'maxListenFilterEntries', max: MAX_ENTRIES });
  });

  it('refuses a URI longer than limits.maxUriLength: -32602 with the id, HTTP 400', async () => {
    const r = await post(
      server.url,
      listenBody('long-uri', { resourceSubscriptions: [uri(1), uri(2, MAX_URI + 1)] }),
      mcpHeaders('subscriptions/listen'),
    );
    expect(r.status).toBe(400);
    expect(r.json.id).toBe('long-uri');
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.error.message).toContain('maxUriLength');
    expect(r.json.error.data).toEqual({ limit: 'maxUriLength', max: MAX_URI });
  });

  it('accepts a filter at the limits and acknowledges it', async () => {
    const uris = Array.from({ length: MAX_ENTRIES }, (_, i) => uri(i, MAX_URI));
    const listen = await openSse(
      server.url,
      listenBody('at-limit', { toolsListChanged: true, resourceSubscriptions: uris }),
      mcpHeaders('subscriptions/listen'),
    );
    const ack = await listen.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params.notifications).toEqual({ toolsListChanged: true, resourceSubscriptions: uris });
    server.app.get(McpRegistrar).notifyResourceUpdated(uris[MAX_ENTRIES - 1]!);
    const updated = await listen.waitFor((m) => m.method === 'notifications/resources/updated');
    expect(updated.params.uri).toBe(uris[MAX_ENTRIES - 1]);
    listen.close();
  });

  it('keeps one GET stream per 2025 session: a second GET closes the first and takes its events', async () => {
    const wire = await LegacyWire.open(server.url);
    const first = await openGet(wire);
    expect(first.res.statusCode).toBe(200);
    const second = await openGet(wire);
    expect(second.res.statusCode).toBe(200);
    await first.ended;

    const registrar = server.app.get(McpRegistrar);
    // Two changes in two turns: changes within one turn are announced once.
    const deadline = Date.now() + 3000;
    registrar.addTool({ extra: () => 'x' }, 'extra', { name: 'bounds_extra', description: 'added' });
    while (second.text().split('list_changed').length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    registrar.removeTool('bounds_extra');
    while (second.text().split('list_changed').length < 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(second.text().split('notifications/tools/list_changed').length - 1).toBe(2);
    expect(first.text()).not.toContain('list_changed');
    second.res.destroy();
  });
});
