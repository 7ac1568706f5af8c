import { ADAPTERS, type RunningApp, startApp } from './support/start-app.js';
import { envelope, mcpHeaders, post, rpc, send, type RawResponse } from './support/raw-mcp.js';
import { FoundationModule, seenByGlobalGuard } from './fixtures/foundation.module.js';

const STACK_TRACE = /\n\s+at |node_modules|\.ts:\d+/;

describe.each(ADAPTERS)('Streamable HTTP foundation on %s', (adapter) => {
  let server: RunningApp;
  const responses: RawResponse[] = [];
  const call = async (method: string, params?: Record<string, unknown>, caps?: Record<string, unknown>) => {
    const r = await rpc(server.url, method, params, { capabilities: caps });
    responses.push(r);
    return r;
  };
  const raw = async (body: unknown, headers: Record<string, string> = mcpHeaders('tools/list')) => {
    const r = await post(server.url, body, headers);
    responses.push(r);
    return r;
  };
  const stillServes = async () => {
    const r = await call('tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
    expect(r.json.result.content[0].text).toBe('2');
  };

  beforeAll(async () => {
    server = await startApp(FoundationModule, adapter);
  });
  afterAll(async () => {
    await server.close();
    for (const r of responses) expect(r.text).not.toMatch(STACK_TRACE);
  });

  it('answers server/discover with versions, derived capabilities, serverInfo and cache hints', async () => {
    const r = await call('server/discover');
    expect(r.status).toBe(200);
    expect(r.json.result).toEqual({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true, idempotency: {} } },
      instructions: 'Be nice',
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'foundation', version: '1.2.3', title: 'Foundation' } },
    });
  });

  it('lists tools with generated input schemas, paginated by an opaque cursor', async () => {
    const first = await call('tools/list');
    expect(first.json.result.tools).toHaveLength(3);
    expect(first.json.result.resultType).toBe('complete');
    expect(first.json.result.cacheScope).toBe('private');
    const names = [...first.json.result.tools.map((t: { name: string }) => t.name)];
    let cursor = first.json.result.nextCursor;
    while (cursor) {
      const page = await call('tools/list', { cursor });
      names.push(...page.json.result.tools.map((t: { name: string }) => t.name));
      cursor = page.json.result.nextCursor;
    }
    expect(names.sort()).toEqual(['add', 'fail', 'forbidden', 'full_result', 'greet', 'profile', 'protocol_error']);
    const add = first.json.result.tools.find((t: { name: string }) => t.name === 'add');
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    const greet = first.json.result.tools.find((t: { name: string }) => t.name === 'greet');
    expect(greet).toMatchObject({
      title: 'Greeter',
      description: 'Greets someone',
      annotations: { readOnlyHint: true },
    });
  });

  it('rejects a cursor it did not mint with -32602', async () => {
    const r = await call('tools/list', { cursor: 'bogus' });
    expect(r.json.error.code).toBe(-32602);
    await stillServes();
  });

  it('calls a tool: string result becomes text content, with resultType and serverInfo', async () => {
    const r = await call('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json.result).toEqual({
      content: [{ type: 'text', text: '5' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'foundation', version: '1.2.3', title: 'Foundation' } },
    });
  });

  it('returns invalid arguments as an isError result listing the violations', async () => {
    const r = await call('tools/call', { name: 'greet', arguments: { name: 42, times: 9 } });
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result.content[0].text).toMatch(/name/);
    expect(r.json.result.content[0].text).toMatch(/times/);
  });

  it("runs the application's global guard with type 'mcp' and method interceptors", async () => {
    seenByGlobalGuard.length = 0;
    const r = await call('tools/call', { name: 'greet', arguments: { name: 'ada' } });
    expect(r.json.result.content[0].text).toBe('HELLO ADA');
    expect(seenByGlobalGuard).toContainEqual({ type: 'mcp', tool: 'greet' });
  });

  it('maps objects to structuredContent, full results pass through, thrown errors to isError', async () => {
    const profile = await call('tools/call', { name: 'profile' });
    expect(profile.json.result.structuredContent).toEqual({ name: 'Ada', languages: ['en', 'fr'] });
    expect(JSON.parse(profile.json.result.content[0].text)).toEqual({ name: 'Ada', languages: ['en', 'fr'] });
    const full = await call('tools/call', { name: 'full_result', arguments: {} });
    expect(full.json.result.content).toEqual([{ type: 'text', text: 'as is' }]);
    const fail = await call('tools/call', { name: 'fail', arguments: {} });
    expect(fail.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'the warehouse is closed' }],
    });
    const denied = await call('tools/call', { name: 'forbidden', arguments: {} });
    expect(denied.json.result.isError).toBe(true);
  });

  it('keeps protocol errors as JSON-RPC errors', async () => {
    const r = await call('tools/call', { name: 'protocol_error', arguments: {} });
    expect(r.json.error).toEqual({ code: -32602, message: 'not like that', data: { hint: 'x' } });
    const unknown = await raw(
      {
        jsonrpc: '2.0',
        id: 'unknown-tool',
        method: 'tools/call',
        params: { name: 'nope', arguments: {}, _meta: envelope() },
      },
      mcpHeaders('tools/call', 'nope'),
    );
    expect(unknown.json.error.code).toBe(-32602);
    expect(unknown.json.id).toBe('unknown-tool');
  });

  describe('bad envelopes', () => {
    const base = (params: Record<string, unknown>, id = 77) => ({
      jsonrpc: '2.0',
      id,
      method: 'server/discover',
      params,
    });

    it('missing _meta → -32602 / 400, id echoed', async () => {
      const r = await raw(base({}), mcpHeaders('server/discover'));
      expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32602, 77]);
      await stillServes();
    });

    it('missing protocol version → -32602 / 400', async () => {
      const meta = envelope();
      delete meta['io.modelcontextprotocol/protocolVersion'];
      const r = await raw(base({ _meta: meta }), mcpHeaders('server/discover'));
      expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32602, 77]);
    });

    it('missing client capabilities → -32602 / 400', async () => {
      const meta = envelope();
      delete meta['io.modelcontextprotocol/clientCapabilities'];
      const r = await raw(base({ _meta: meta }), mcpHeaders('server/discover'));
      expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32602, 77]);
    });

    it('a request without clientInfo still succeeds', async () => {
      const meta = envelope();
      delete meta['io.modelcontextprotocol/clientInfo'];
      const r = await raw(base({ _meta: meta }), mcpHeaders('server/discover'));
      expect(r.status).toBe(200);
      expect(r.json.result.supportedVersions).toEqual(['2026-07-28']);
    });

    it('unsupported version → -32022 / 400 with data.supported', async () => {
      const meta = { ...envelope(), 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' };
      const r = await raw(base({ _meta: meta }), {
        ...mcpHeaders('server/discover'),
        'mcp-protocol-version': 'v999.0.0',
      });
      expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32022, 77]);
      expect(r.json.error.data).toEqual({ supported: ['2026-07-28'], requested: 'v999.0.0' });
      await stillServes();
    });
  });

  describe('methods', () => {
    it.each([
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'unknown/method',
      'prompts/list',
    ])('%s → -32601 / 404', async (method) => {
      const r = await call(method);
      expect([r.status, r.json.error.code]).toEqual([404, -32601]);
      expect(r.json.id).toEqual(expect.any(Number));
    });
  });

  describe('headers', () => {
    const body = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: envelope() },
    };

    it.each([
      ['a different MCP-Protocol-Version', { 'mcp-protocol-version': '2025-11-25' }],
      ['a different Mcp-Method', { 'mcp-method': 'tools/list' }],
      ['a different Mcp-Name', { 'mcp-name': 'greet' }],
      ['no Mcp-Method', { 'mcp-method': undefined }],
      ['no MCP-Protocol-Version', { 'mcp-protocol-version': undefined }],
      ['no Mcp-Name', { 'mcp-name': undefined }],
    ])('%s → -32020 / 400', async (_label, override) => {
      const headers: Record<string, string> = { ...mcpHeaders('tools/call', 'add') };
      for (const [k, v] of Object.entries(override)) {
        if (v === undefined) delete headers[k];
        else headers[k] = v;
      }
      const r = await raw(body, headers);
      expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32020, 5]);
      await stillServes();
    });

    it('refuses a malformed base64 header value with -32020', async () => {
      const r = await raw(body, { ...mcpHeaders('tools/call'), 'mcp-name': '=?base64?YWR?=' });
      expect([r.status, r.json.error.code]).toEqual([400, -32020]);
    });

    it('checks the version header against _meta before refusing an unsupported version', async () => {
      const meta = { ...envelope(), 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' };
      const r = await raw(
        { jsonrpc: '2.0', id: 8, method: 'server/discover', params: { _meta: meta } },
        mcpHeaders('server/discover'),
      );
      expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32020, 8]);
    });

    it('accepts base64-encoded header values and case-insensitive header names', async () => {
      const headers = {
        ...mcpHeaders('tools/call'),
        'MCP-NAME': `=?base64?${Buffer.from('add').toString('base64')}?=`,
      };
      const r = await raw(body, headers);
      expect(r.json.result.content[0].text).toBe('3');
    });
  });

  describe('transport-level bad input', () => {
    it.each(['GET', 'DELETE'])('%s without a 2025-era session → 400 naming Mcp-Session-Id', async (method) => {
      const r = await send(server.url, method, undefined, { accept: 'application/json, text/event-stream' });
      responses.push(r);
      expect(r.status).toBe(400);
      expect(r.json.error.message).toContain('Mcp-Session-Id');
      await stillServes();
    });

    it.each(['PUT', 'PATCH'])('%s → 405 naming the methods served', async (method) => {
      const r = await send(server.url, method, undefined, { accept: 'application/json, text/event-stream' });
      responses.push(r);
      expect(r.status).toBe(405);
      expect(r.headers['allow']).toBe('GET, POST, DELETE');
      await stillServes();
    });

    it('a foreign Origin → 403', async () => {
      const r = await raw(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } },
        { ...mcpHeaders('tools/list'), origin: 'http://evil.example.com' },
      );
      expect(r.status).toBe(403);
      await stillServes();
    });

    it('a foreign Host → 403; loopback hosts and origins pass', async () => {
      const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } };
      const evil = await raw(body, {
        ...mcpHeaders('tools/list'),
        host: 'evil.example.com',
        origin: 'http://evil.example.com',
      });
      expect(evil.status).toBe(403);
      const local = await raw(body, {
        ...mcpHeaders('tools/list'),
        host: 'localhost:1234',
        origin: 'http://localhost:1234',
      });
      expect(local.status).toBe(200);
    });

    it('an Accept without JSON → 406', async () => {
      const r = await raw(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } },
        { ...mcpHeaders('tools/list'), accept: 'text/html' },
      );
      expect(r.status).toBe(406);
      await stillServes();
    });

    it('a non-JSON content type → 415', async () => {
      const r = await raw('hello', { ...mcpHeaders('tools/list'), 'content-type': 'text/plain' });
      expect(r.status).toBe(415);
      await stillServes();
    });

    it('a body over the limit → 413', async () => {
      const big = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1, b: 2, pad: 'x'.repeat(4096) }, _meta: envelope() },
      };
      const r = await raw(big, mcpHeaders('tools/call', 'add'));
      expect(r.status).toBe(413);
      expect(r.json.error.code).toBe(-32600);
      await stillServes();
    });

    it('malformed JSON → -32700 / 400', async () => {
      const r = await raw('{"jsonrpc": "2.0", "id": 1, "method": ', mcpHeaders('tools/list'));
      expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32700, null]);
      await stillServes();
    });

    it('an empty body → -32700 / 400', async () => {
      const r = await raw('', mcpHeaders('tools/list'));
      expect([r.status, r.json.error.code]).toEqual([400, -32700]);
    });

    it('a batch → -32600 / 400', async () => {
      const r = await raw([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }]);
      expect([r.status, r.json.error.code]).toEqual([400, -32600]);
      await stillServes();
    });

    it.each([
      ['not an object', 42],
      ['no jsonrpc', { id: 3, method: 'tools/list' }],
      ['an object id', { jsonrpc: '2.0', id: { x: 1 }, method: 'tools/list' }],
      ['no method', { jsonrpc: '2.0', id: 3 }],
      ['array params', { jsonrpc: '2.0', id: 3, method: 'tools/list', params: [1] }],
    ])('%s → -32600 / 400', async (_label, body) => {
      const r = await raw(body);
      expect([r.status, r.json.error.code]).toEqual([400, -32600]);
      await stillServes();
    });

    it('echoes the id of an invalid request when it has a usable one', async () => {
      const r = await raw({ jsonrpc: '2.0', id: 'abc', method: 42 });
      expect(r.json.id).toBe('abc');
    });

    it('a notification → 202 with no body', async () => {
      const r = await raw({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(r.status).toBe(202);
      expect(r.text).toBe('');
      await stillServes();
    });
  });
});
