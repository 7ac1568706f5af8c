import { setTimeout as delay } from 'node:timers/promises';
import { SurfaceModule, slowCalls } from './fixtures/surface.module.js';
import { envelope, mcpHeaders, post, rpc } from './support/raw-mcp.js';
import { openSse } from './support/sse-stream.js';
import { ADAPTERS, type RunningApp, startApp } from './support/start-app.js';

describe.each(ADAPTERS)('prompts, resources, completion, streaming and subscriptions on %s', (adapter) => {
  let server: RunningApp;

  beforeEach(async () => {
    server = await startApp(SurfaceModule, adapter);
  });
  afterEach(async () => {
    await server.close();
  });

  it('advertises what is registered', async () => {
    const r = await rpc(server.url, 'server/discover');
    expect(r.json.result.capabilities).toEqual({
      tools: { listChanged: true, idempotency: {} },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
    expect([r.json.result.ttlMs, r.json.result.cacheScope]).toEqual([60000, 'public']);
  });

  it('lists and gets prompts, with arguments from the DTO and validation', async () => {
    const list = await rpc(server.url, 'prompts/list');
    expect(list.json.result.prompts).toEqual([
      {
        name: 'plan_trip',
        description: 'Plans a trip',
        arguments: [
          { name: 'city', description: 'Where to', required: true },
          { name: 'mood', required: true },
        ],
      },
    ]);
    expect(list.json.result.ttlMs).toBe(60000);
    const got = await rpc(server.url, 'prompts/get', {
      name: 'plan_trip',
      arguments: { city: 'porto', mood: 'hungry' },
    });
    expect(got.json.result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Plan a hungry trip to porto' } },
    ]);
    const invalid = await rpc(server.url, 'prompts/get', {
      name: 'plan_trip',
      arguments: { city: 'atlantis', mood: 'x' },
    });
    expect(invalid.json.error.code).toBe(-32602);
    const unknown = await rpc(server.url, 'prompts/get', { name: 'nope' });
    expect(unknown.json.error.code).toBe(-32602);
  });

  it('lists and reads resources and templates; an unknown URI is -32602 with data.uri', async () => {
    const list = await rpc(server.url, 'resources/list');
    expect(list.json.result.resources.map((r: { uri: string }) => r.uri)).toEqual(['test://motd', 'test://logo']);
    const templates = await rpc(server.url, 'resources/templates/list');
    expect(templates.json.result.resourceTemplates).toEqual([
      { uriTemplate: 'orders://{id}', name: 'order', description: 'One order' },
    ]);
    const text = await rpc(server.url, 'resources/read', { uri: 'test://motd' });
    expect(text.json.result).toMatchObject({
      contents: [{ uri: 'test://motd', mimeType: 'text/plain', text: 'Bonjour' }],
      ttlMs: 60000,
      cacheScope: 'public',
    });
    const blob = await rpc(server.url, 'resources/read', { uri: 'test://logo' });
    expect(blob.json.result.contents[0].blob).toBe(Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'));
    const order = await rpc(server.url, 'resources/read', { uri: 'orders://42' });
    expect(JSON.parse(order.json.result.contents[0].text)).toEqual({ id: '42', uri: 'orders://42', status: 'shipped' });
    const missing = await rpc(server.url, 'resources/read', { uri: 'test://nothing' });
    expect(missing.json.error).toMatchObject({ code: -32602, data: { uri: 'test://nothing' } });
  });

  it('completes prompt arguments from @IsIn and from completers, and template variables', async () => {
    const city = await rpc(server.url, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'city', value: 'p' },
    });
    expect(city.json.result.completion).toEqual({ values: ['paris', 'porto', 'prague'], total: 3, hasMore: false });
    const mood = await rpc(server.url, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'mood', value: 'h' },
    });
    expect(mood.json.result.completion.values).toEqual(['happy', 'hungry']);
    const id = await rpc(server.url, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'orders://{id}' },
      argument: { name: 'id', value: '10' },
    });
    expect(id.json.result.completion.values).toEqual(['100', '101']);
    expect(id.json.result.resultType).toBe('complete');
  });

  it('streams progress and log messages over SSE only when the request asks for them', async () => {
    const quiet = await rpc(server.url, 'tools/call', { name: 'count' });
    expect(quiet.headers['content-type']).toMatch(/application\/json/);
    expect(quiet.json.result.content[0].text).toBe('done');

    const meta = { ...envelope(), progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'info' };
    const stream = await openSse(
      server.url,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'count', _meta: meta } },
      mcpHeaders('tools/call', 'count'),
    );
    expect(stream.response.headers['content-type']).toBe('text/event-stream');
    await stream.ended;
    const methods = stream.messages.map((m) => m.method ?? 'result');
    expect(methods).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'result',
    ]);
    expect(stream.messages[0].params).toEqual({ progressToken: 'p1', progress: 1, total: 3, message: 'step 1' });
    expect(stream.messages[1].params).toEqual({ level: 'info', data: { step: 1 } });
    expect(stream.messages.at(-1)).toMatchObject({
      id: 9,
      result: { content: [{ type: 'text', text: 'done' }], resultType: 'complete' },
    });
    expect(stream.messages.some((m) => 'method' in m && 'id' in m)).toBe(false);
  });

  it('checks Mcp-Param headers for x-mcp-header arguments', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'regional', arguments: { region: 'eu-west' }, _meta: envelope() },
    };
    const ok = await post(server.url, body, { ...mcpHeaders('tools/call', 'regional'), 'mcp-param-region': 'eu-west' });
    expect(ok.json.result.content[0].text).toBe('eu-west');
    const missing = await post(server.url, body, mcpHeaders('tools/call', 'regional'));
    expect([missing.status, missing.json.error.code]).toEqual([400, -32020]);
    const wrong = await post(server.url, body, {
      ...mcpHeaders('tools/call', 'regional'),
      'mcp-param-region': 'us-east',
    });
    expect([wrong.status, wrong.json.error.code]).toEqual([400, -32020]);
    const encoded = await post(server.url, body, {
      ...mcpHeaders('tools/call', 'regional'),
      'Mcp-Param-Region': `=?base64?${Buffer.from('eu-west').toString('base64')}?=`,
    });
    expect(encoded.json.result.content[0].text).toBe('eu-west');
  });

  it('subscriptions/listen: acknowledges the filter, then sends only what was asked, tagged with the subscription id', async () => {
    const listen = await openSse(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ['test://motd'], bogus: true },
          _meta: envelope(),
        },
      },
      mcpHeaders('subscriptions/listen'),
    );
    const ack = await listen.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toEqual({
      notifications: { toolsListChanged: true, resourceSubscriptions: ['test://motd'] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
    });

    await rpc(server.url, 'tools/call', { name: 'add_extra_tool' });
    const changed = await listen.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(changed.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'sub-1' });
    const extra = await rpc(server.url, 'tools/call', { name: 'extra' });
    expect(extra.json.result.content[0].text).toBe('extra!');

    await rpc(server.url, 'tools/call', { name: 'touch_motd' });
    const updated = await listen.waitFor((m) => m.method === 'notifications/resources/updated');
    expect(updated.params.uri).toBe('test://motd');
    expect(listen.messages.some((m) => m.method === 'notifications/prompts/list_changed')).toBe(false);

    // Shutting the server down ends the stream cleanly, with the listen result last.
    await server.close();
    await listen.ended;
    expect(listen.messages.at(-1)).toMatchObject({
      id: 'sub-1',
      result: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    server = await startApp(SurfaceModule, adapter);
  });

  it('aborts the handler through its AbortSignal when the client disconnects, and keeps serving', async () => {
    slowCalls.started = slowCalls.aborted = 0;
    const { request } = await import('node:http');
    const req = request(server.url, { method: 'POST', headers: mcpHeaders('tools/call', 'slow') });
    req.on('error', () => undefined);
    req.end(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', _meta: envelope() } }),
    );
    for (let i = 0; i < 50 && slowCalls.started === 0; i++) await delay(20);
    req.destroy();
    for (let i = 0; i < 50 && slowCalls.aborted === 0; i++) await delay(20);
    expect(slowCalls).toEqual({ started: 1, aborted: 1 });
    const list = await rpc(server.url, 'tools/list');
    expect(list.json.result.resultType).toBe('complete');
  });
});
