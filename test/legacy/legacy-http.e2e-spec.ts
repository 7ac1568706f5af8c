import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { mcpHeaders, post, rpc, send } from '../support/raw-mcp.js';
import { HeaderPrincipalSource, LegacyProbe, legacyModule } from './legacy.fixtures.js';
import { initialize, LegacyWire } from './legacy-wire.js';

const NO_MODERN_STAMPS = expect.not.objectContaining({
  resultType: expect.anything(),
  ttlMs: expect.anything(),
  cacheScope: expect.anything(),
});

describe.each(ADAPTERS)('the 2025-era leg over Streamable HTTP, on %s', (adapter) => {
  let server: RunningApp;
  let probe: LegacyProbe;
  beforeAll(async () => {
    server = await startApp(
      legacyModule({
        principalSource: new HeaderPrincipalSource(),
        legacy: { maxInputRounds: 2, inputRoundTimeoutMs: 1500 },
      }),
      adapter,
    );
    probe = server.app.get(LegacyProbe);
  });
  afterAll(() => server.close());

  describe('initialize', () => {
    it.each([
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-06-18'],
      ['2025-03-26', '2025-03-26'],
      ['2024-11-05', '2025-11-25'],
      ['not-a-version', '2025-11-25'],
    ])('asked for %s, negotiates %s', async (asked, negotiated) => {
      const r = await initialize(server.url, {
        protocolVersion: asked,
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      });
      expect(r.status).toBe(200);
      expect(r.json.result).toMatchObject({
        protocolVersion: negotiated,
        serverInfo: { name: 'legacy-e2e', version: '3.0.0' },
      });
      expect(r.json.result.capabilities).toMatchObject({
        tools: { listChanged: true },
        resources: { subscribe: true },
        logging: {},
      });
      expect(r.json.result).toEqual(NO_MODERN_STAMPS);
      expect(r.headers['mcp-session-id']).toMatch(/^[\x21-\x7e]+$/);
    });

    it('answers list and call results in their 2025 shapes', async () => {
      const wire = await LegacyWire.open(server.url);
      const list = await wire.request('tools/list');
      expect(list.status).toBe(200);
      expect(list.json.result.tools.map((t: { name: string }) => t.name)).toContain('greet');
      expect(list.json.result).toEqual(NO_MODERN_STAMPS);
      expect(list.json.result._meta).toBeUndefined();
      const read = await wire.request('resources/read', { uri: 'legacy://note' });
      expect(read.json.result).toEqual({
        contents: [{ uri: 'legacy://note', mimeType: 'text/plain', text: 'a note' }],
      });
      expect((await wire.request('ping')).json.result).toEqual({});
    });
  });

  describe('session errors, each with its status, code and a way back', () => {
    it('no Mcp-Session-Id → 400; initialize again recovers', async () => {
      const r = await post(
        server.url,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      );
      expect([r.status, r.json.error.code]).toEqual([400, -32600]);
      expect(r.json.error.message).toContain('Mcp-Session-Id');
      expect((await (await LegacyWire.open(server.url)).request('tools/list')).status).toBe(200);
    });

    it('an unknown or tampered session id → 404, and a new session works', async () => {
      const wire = await LegacyWire.open(server.url);
      const id = wire.sessionId;
      const tampered = id.slice(0, 20) + (id[20] === 'A' ? 'B' : 'A') + id.slice(21);
      for (const bad of ['nonsense', tampered, `${id}x`]) {
        const r = await wire.request('tools/list', {}, { 'mcp-session-id': bad });
        expect([r.status, r.json.error.code]).toEqual([404, -32600]);
      }
      expect((await wire.request('tools/list')).status).toBe(200);
    });

    it('a requestState is no session id, and a session id is no requestState', async () => {
      const wire = await LegacyWire.open(server.url);
      const round = await rpc(
        server.url,
        'tools/call',
        { name: 'ask_name', arguments: {} },
        { capabilities: { elicitation: {} } },
      );
      const requestState = round.json.result.requestState as string;
      const asSession = await wire.request('tools/list', {}, { 'mcp-session-id': requestState });
      expect(asSession.status).toBe(404);
      const asState = await rpc(
        server.url,
        'tools/call',
        { name: 'ask_name', arguments: {}, requestState: wire.sessionId },
        { capabilities: { elicitation: {} } },
      );
      expect([asState.status, asState.json.error.code, asState.json.error.data]).toEqual([
        400,
        -32602,
        { reason: 'authentication_failed' },
      ]);
    });

    it('a session opened by one principal, used by another → 403; the owner still gets through', async () => {
      const alice = await LegacyWire.open(server.url, {}, { 'x-user': 'alice' });
      const asBob = await alice.request('tools/list', {}, { 'x-user': 'bob' });
      expect([asBob.status, asBob.json.error.code]).toEqual([403, -32600]);
      const anonymous = await alice.request('tools/list', {}, { 'x-user': '' });
      expect(anonymous.status).toBe(403);
      expect((await alice.request('tools/list')).status).toBe(200);
    });

    it('an unsupported MCP-Protocol-Version header → 400', async () => {
      const wire = await LegacyWire.open(server.url);
      const r = await wire.request('tools/list', {}, { 'mcp-protocol-version': '2024-01-01' });
      expect([r.status, r.json.error.code]).toEqual([400, -32600]);
      expect((await wire.request('tools/list', {}, { 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
    });

    it('DELETE ends the session: the id then gets 404', async () => {
      const wire = await LegacyWire.open(server.url);
      expect((await wire.delete()).status).toBe(200);
      const after = await wire.request('tools/list');
      expect([after.status, after.json.error.code]).toEqual([404, -32600]);
      expect((await wire.delete()).status).toBe(404);
    });
  });

  describe('input pushed to the client', () => {
    it('a form round: elicitation/create on the POST stream, the posted answer (202), then the result', async () => {
      const wire = await LegacyWire.open(server.url);
      const runs = probe.runs['ask_name'] ?? 0;
      const stream = await wire.stream('tools/call', { name: 'ask_name', arguments: {} }, 'call-1');
      expect(stream.response.headers['content-type']).toBe('text/event-stream');
      const pushed = await stream.waitFor((m) => m.method === 'elicitation/create');
      // A random per-process prefix: another node's pushed ids never collide with these.
      expect(pushed.id).toMatch(/^mocapi-[A-Za-z0-9_-]{8}-\d+$/);
      expect(pushed.params).toMatchObject({
        mode: 'form',
        message: 'Your name?',
        requestedSchema: { properties: { name: { type: 'string' } } },
      });
      expect((await wire.answer(pushed.id, { action: 'accept', content: { name: 'Ada' } })).status).toBe(202);
      const done = await stream.waitFor((m) => m.id === 'call-1');
      expect(done.result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
      expect(probe.runs['ask_name']).toBe(runs + 2);
    });

    it('an answer that does not fit the schema is asked again, like a modern retry', async () => {
      const wire = await LegacyWire.open(server.url);
      const stream = await wire.stream('tools/call', { name: 'ask_name', arguments: {} }, 'call-2');
      const first = await stream.waitFor((m) => m.method === 'elicitation/create');
      await wire.answer(first.id, { action: 'accept', content: { name: 'A' } });
      const second = await stream.waitFor((m) => m.method === 'elicitation/create' && m.id !== first.id);
      await wire.answer(second.id, { action: 'accept', content: { name: 'Al' } });
      expect((await stream.waitFor((m) => m.id === 'call-2')).result.content[0].text).toBe('Hello, Al!');
    });

    it('2025-06-18 sessions get form requests without the mode field they do not know', async () => {
      const r = await initialize(server.url, {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'old', version: '1' },
      });
      const headers = {
        ...mcpHeaders('tools/call'),
        'mcp-protocol-version': '2025-06-18',
        'mcp-session-id': String(r.headers['mcp-session-id']),
      };
      const { openSse } = await import('../support/sse-stream.js');
      const stream = await openSse(
        server.url,
        { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask_name' } },
        headers,
      );
      const pushed = await stream.waitFor((m) => m.method === 'elicitation/create');
      expect(pushed.params.mode).toBeUndefined();
      expect(pushed.params.message).toBe('Your name?');
      stream.close();
    });

    it('a response for an unknown request id → 400, and the session goes on', async () => {
      const wire = await LegacyWire.open(server.url);
      const r = await wire.answer('mocapi-nope', { action: 'accept', content: {} });
      expect([r.status, r.json.error.code]).toEqual([400, -32600]);
      expect(r.json.error.message).toContain('mocapi-nope');
      const malformed = await post(server.url, { jsonrpc: '2.0', id: 5, result: 'not an object' }, wire.headers());
      expect(malformed.status).toBe(400);
      const after = await wire.request('tools/call', { name: 'greet' });
      expect([after.status, after.text.includes('"text":"Hello!"')]).toEqual([200, true]);
    });

    it('a response posted in another session does not reach the call', async () => {
      const owner = await LegacyWire.open(server.url);
      const stranger = await LegacyWire.open(server.url);
      const stream = await owner.stream('tools/call', { name: 'ask_name', arguments: {} }, 'call-3');
      const pushed = await stream.waitFor((m) => m.method === 'elicitation/create');
      expect((await stranger.answer(pushed.id, { action: 'accept', content: { name: 'Eve' } })).status).toBe(400);
      await owner.answer(pushed.id, { action: 'accept', content: { name: 'Bo' } });
      expect((await stream.waitFor((m) => m.id === 'call-3')).result.content[0].text).toBe('Hello, Bo!');
    });

    it('a client that accepts only JSON cannot be asked: an isError result says so', async () => {
      const wire = await LegacyWire.open(server.url);
      const r = await wire.request('tools/call', { name: 'ask_name', arguments: {} }, { accept: 'application/json' });
      expect(r.status).toBe(200);
      expect(r.json.result.isError).toBe(true);
      expect(r.json.result.content[0].text).toContain('accepts only application/json');
    });

    it('a client without the capability gets an isError result naming it', async () => {
      const wire = await LegacyWire.open(server.url, {});
      const r = await wire.request('tools/call', { name: 'capital', arguments: {} });
      expect(r.json.result.isError).toBe(true);
      expect(r.json.result.content[0].text).toContain('"sampling"');
      const url = await (
        await LegacyWire.open(server.url, { elicitation: {} })
      ).request('tools/call', { name: 'sign_in' });
      expect(url.json.result.content[0].text).toContain('"url"');
    });

    it('url mode goes to a client that declared it', async () => {
      const wire = await LegacyWire.open(server.url, { elicitation: { form: {}, url: {} } });
      const stream = await wire.stream('tools/call', { name: 'sign_in' }, 'call-url');
      const pushed = await stream.waitFor((m) => m.method === 'elicitation/create');
      expect(pushed.params).toMatchObject({
        mode: 'url',
        url: 'https://example.com/sign-in',
        message: 'Please sign in',
      });
      await wire.answer(pushed.id, { action: 'accept' });
      expect((await stream.waitFor((m) => m.id === 'call-url')).result.content[0].text).toBe('url accept');
    });

    it('more rounds than legacy.maxInputRounds → an isError result, the handler stops', async () => {
      const wire = await LegacyWire.open(server.url);
      const stream = await wire.stream('tools/call', { name: 'three_questions' }, 'call-4');
      for (const field of ['first', 'second']) {
        const pushed = await stream.waitFor(
          (m) => m.method === 'elicitation/create' && m.params.message === `The ${field}?`,
        );
        await wire.answer(pushed.id, { action: 'accept', content: { [field]: field.toUpperCase() } });
      }
      const done = await stream.waitFor((m) => m.id === 'call-4');
      expect(done.result.isError).toBe(true);
      expect(done.result.content[0].text).toContain('more than 2 times');
      expect(stream.messages.filter((m) => m.method === 'elicitation/create')).toHaveLength(2);
    });

    it('no answer within legacy.inputRoundTimeoutMs → an isError result naming the timeout', async () => {
      const wire = await LegacyWire.open(server.url);
      const stream = await wire.stream('tools/call', { name: 'ask_name' }, 'call-5');
      const done = await stream.waitFor((m) => m.id === 'call-5', 5000);
      expect(done.result.isError).toBe(true);
      expect(done.result.content[0].text).toContain('did not answer elicitation/create within 1.5 s');
      // A late answer finds nothing waiting.
      const late = stream.messages.find((m) => m.method === 'elicitation/create');
      expect((await wire.answer(late.id, { action: 'accept', content: { name: 'Late' } })).status).toBe(400);
    });

    it('an error answer from the client ends the call with an isError result', async () => {
      const wire = await LegacyWire.open(server.url);
      const stream = await wire.stream('tools/call', { name: 'ask_name' }, 'call-6');
      const pushed = await stream.waitFor((m) => m.method === 'elicitation/create');
      await post(
        server.url,
        { jsonrpc: '2.0', id: pushed.id, error: { code: -32601, message: 'no UI' } },
        wire.headers(),
      );
      const done = await stream.waitFor((m) => m.id === 'call-6');
      expect(done.result.isError).toBe(true);
      expect(done.result.content[0].text).toContain('no UI');
    });
  });

  describe('notifications', () => {
    it('notifications/cancelled aborts the call and no response is sent', async () => {
      const wire = await LegacyWire.open(server.url);
      const stream = await wire.stream(
        'tools/call',
        { name: 'wait_for_cancel', _meta: { progressToken: 'p' } },
        'call-7',
      );
      await stream.waitFor((m) => m.method === 'notifications/progress');
      expect((await wire.notify('notifications/cancelled', { requestId: 'call-7', reason: 'user' })).status).toBe(202);
      await stream.ended;
      expect(probe.lastSignal?.aborted).toBe(true);
      expect(stream.messages.some((m) => m.id === 'call-7')).toBe(false);
    });

    it('logging/setLevel filters notifications/message; without it every level is sent', async () => {
      const wire = await LegacyWire.open(server.url);
      const chatty = await wire.stream('tools/call', { name: 'greet' }, 'g1');
      await chatty.ended;
      expect(chatty.messages[0]).toMatchObject({
        method: 'notifications/message',
        params: { level: 'info', data: 'greeting' },
      });
      expect((await wire.request('logging/setLevel', { level: 'error' })).json.result).toEqual({});
      const quiet = await wire.request('tools/call', { name: 'greet' });
      expect(quiet.json.result.content[0].text).toBe('Hello!');
      const bad = await wire.request('logging/setLevel', { level: 'loud' });
      expect(bad.json.error.code).toBe(-32602);
    });

    it('GET opens the session stream: list_changed and updates of subscribed resources arrive there', async () => {
      const wire = await LegacyWire.open(server.url);
      expect((await wire.request('resources/subscribe', { uri: 'legacy://note' })).json.result).toEqual({});
      const { request } = await import('node:http');
      const events: string[] = [];
      const req = request(server.url, { method: 'GET', headers: wire.headers({ accept: 'text/event-stream' }) });
      const opened = new Promise<number>((resolve) =>
        req.on('response', (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => events.push(chunk));
          resolve(res.statusCode ?? 0);
        }),
      );
      req.on('error', () => undefined);
      req.end();
      expect(await opened).toBe(200);
      const { McpRegistrar } = await import('../../src/index.js');
      const registrar = server.app.get(McpRegistrar);
      registrar.notifyResourceUpdated('legacy://note');
      registrar.notifyResourceUpdated('legacy://other');
      // Two changes in two turns: changes within one turn are announced once.
      const deadline = Date.now() + 3000;
      registrar.addTool({ extra: () => 'x' }, 'extra', { name: 'extra_tool', description: 'added' });
      while (events.join('').split('list_changed').length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      registrar.removeTool('extra_tool');
      while (events.join('').split('list_changed').length < 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      req.destroy();
      const text = events.join('');
      expect(text).toContain('"method":"notifications/resources/updated","params":{"uri":"legacy://note"}');
      expect(text).not.toContain('legacy://other');
      expect(text.split('notifications/tools/list_changed').length - 1).toBe(2);
    });

    it('GET without Accept: text/event-stream → 406', async () => {
      const wire = await LegacyWire.open(server.url);
      const r = await send(server.url, 'GET', undefined, wire.headers({ accept: 'application/json' }));
      expect(r.status).toBe(406);
    });
  });
});
