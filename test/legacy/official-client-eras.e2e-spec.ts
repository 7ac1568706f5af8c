import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { legacyModule } from './legacy.fixtures.js';

/** Every POST the client made: its JSON-RPC method (or 'response') and the session header it sent. */
function recording(): { fetch: typeof fetch; posts: Array<{ method: string; session: string | null }> } {
  const posts: Array<{ method: string; session: string | null }> = [];
  return {
    posts,
    fetch: async (input, init) => {
      if (init?.method === 'POST' && typeof init.body === 'string') {
        const body = JSON.parse(init.body);
        posts.push({ method: body.method ?? 'response', session: new Headers(init.headers).get('mcp-session-id') });
      }
      return fetch(input, init);
    },
  };
}

describe.each(ADAPTERS)('the official client 2.4.0 in each of its era settings, on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(legacyModule(), adapter);
  });
  afterAll(() => server.close());

  it('default settings (legacy): a sampling round and a roots round complete through pushed requests', async () => {
    const wire = recording();
    const client = new Client(
      { name: 'legacy-sampler', version: '1.0.0' },
      { capabilities: { sampling: {}, roots: {} } },
    );
    client.setRequestHandler('sampling/createMessage', async (request) => {
      expect(request.params.maxTokens).toBe(20);
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Paris' } };
    });
    client.setRequestHandler('roots/list', async () => ({
      roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }],
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: wire.fetch }));
    try {
      expect(wire.posts[0]!.method).toBe('initialize');
      expect((await client.callTool({ name: 'capital', arguments: {} })).content).toEqual([
        { type: 'text', text: 'test-model says Paris' },
      ]);
      expect((await client.callTool({ name: 'roots', arguments: {} })).content).toEqual([
        { type: 'text', text: 'file:///work file:///tmp' },
      ]);
      // Each call: the tools/call POST, then the client's posted response to the pushed request.
      expect(wire.posts.map((p) => p.method)).toEqual([
        'initialize',
        'notifications/initialized',
        'tools/call',
        'response',
        'tools/call',
        'response',
      ]);
      expect(new Set(wire.posts.slice(1).map((p) => p.session)).size).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("versionNegotiation 'auto' probes server/discover and then speaks 2026-07-28 (MRTR retries, no session)", async () => {
    const wire = recording();
    const client = new Client(
      { name: 'auto-client', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Auto' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: wire.fetch }));
    try {
      expect((await client.callTool({ name: 'ask_name', arguments: {} })).content).toEqual([
        { type: 'text', text: 'Hello, Auto!' },
      ]);
      expect(wire.posts[0]!.method).toBe('server/discover');
      expect(wire.posts.map((p) => p.method)).not.toContain('initialize');
      expect(wire.posts.filter((p) => p.method === 'tools/call')).toHaveLength(2);
      expect(wire.posts.every((p) => p.session === null)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('pinned to 2026-07-28: served statelessly as before', async () => {
    const client = new Client(
      { name: 'pinned', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect((await client.callTool({ name: 'greet', arguments: {} })).content).toEqual([
        { type: 'text', text: 'Hello!' },
      ]);
    } finally {
      await client.close();
    }
  });
});
