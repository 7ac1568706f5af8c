import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { NestFactory } from '@nestjs/core';
import { McpStdioTransport } from '../../src/index.js';
import { ExpressAdapter } from '@nestjs/platform-express';
import { OidcTestProvider } from '../oauth2/oidc-test-provider.js';
import { mcp } from '../oauth2/support/oauth2-http.js';
import { freePort } from '../support/free-port.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { envelope, post } from '../support/raw-mcp.js';
import { twoServersModule } from './several-servers.fixture.js';

// Two McpModule.forRoot in one application, each serving the modules it includes at its own path:
// the public one without authentication, the staff one behind @mocapi/nestjs/oauth2 (a real OIDC
// provider issues the tokens). Neither opens the other's requestState or 2025-era session id.

const YES = { 'elicit-1': { action: 'accept', content: { ok: true } } };

let provider: OidcTestProvider;
beforeAll(async () => {
  provider = await OidcTestProvider.start();
});
afterAll(() => provider.stop());

describe.each(ADAPTERS)('two MCP servers in one application (%s)', (adapter) => {
  let server: RunningApp;
  let publicUrl: string;
  let staffUrl: string;
  let token: string;

  beforeAll(async () => {
    const port = await freePort();
    staffUrl = `http://127.0.0.1:${port}/mcp/staff`;
    server = await startApp(twoServersModule({ issuer: provider.issuer, audience: staffUrl }), adapter, { port });
    publicUrl = server.url;
    token = await provider.clientCredentials('alice', { resource: staffUrl });
  });
  afterAll(() => server?.close());

  const names = (reply: { body: any }) =>
    (reply.body.result.tools as Array<{ name: string }>).map((t) => t.name).sort();

  it('each server lists only the tools of the modules it includes', async () => {
    expect(names(await mcp(publicUrl, 'tools/list'))).toEqual(['confirm', 'menu']);
    expect(names(await mcp(staffUrl, 'tools/list', {}, { token }))).toEqual(['confirm', 'refund']);
    const unknown = await mcp(publicUrl, 'tools/call', { name: 'refund', arguments: {} });
    expect(unknown.body.error).toMatchObject({ code: -32602 });
  });

  it('the staff server requires a token; the public one ignores it', async () => {
    const refused = await mcp(staffUrl, 'tools/list');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await mcp(staffUrl, 'tools/call', { name: 'refund', arguments: {} }, { token })).body.result).toMatchObject(
      {
        content: [{ type: 'text', text: 'refunded' }],
      },
    );
    const anonymous = await mcp(publicUrl, 'tools/call', { name: 'menu', arguments: {} });
    expect(anonymous.status).toBe(200);
    const withGarbage = await mcp(publicUrl, 'tools/call', { name: 'menu', arguments: {} }, { token: 'not-a-token' });
    expect(withGarbage.body.result.content).toEqual([{ type: 'text', text: 'soup, bread' }]);
  });

  it("refuses the other server's requestState (authentication_failed), and completes its own", async () => {
    const call = { name: 'confirm', arguments: {} };
    const fromPublic = (await mcp(publicUrl, 'tools/call', call)).body.result;
    expect(fromPublic.resultType).toBe('input_required');
    const retry = { ...call, requestState: fromPublic.requestState, inputResponses: YES };
    const onStaff = await mcp(staffUrl, 'tools/call', retry, { token });
    expect(onStaff.body.error).toMatchObject({ code: -32602, data: { reason: 'authentication_failed' } });
    const fromStaff = (await mcp(staffUrl, 'tools/call', call, { token })).body.result;
    const back = await mcp(publicUrl, 'tools/call', {
      ...call,
      requestState: fromStaff.requestState,
      inputResponses: YES,
    });
    expect(back.body.error).toMatchObject({ code: -32602, data: { reason: 'authentication_failed' } });
    const own = await mcp(publicUrl, 'tools/call', retry);
    expect(own.body.result.content).toEqual([{ type: 'text', text: 'confirmed' }]);
  });

  it("refuses the other server's 2025-era session id with 404", async () => {
    const session = await LegacyWire.open(publicUrl);
    expect((await session.request('tools/list')).json.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(
      ['confirm', 'menu'],
    );
    const elsewhere = await post(
      staffUrl,
      { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} },
      { ...session.headers(), authorization: `Bearer ${token}` },
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json.id).toBe(7);
  });
});

describe('stdio with two servers', () => {
  it('serves the server chosen by its path, and names the paths when none matches', async () => {
    const module = twoServersModule({ issuer: provider.issuer, audience: 'http://127.0.0.1/mcp/staff' });
    const app = await NestFactory.createApplicationContext(module, { logger: false });
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = McpStdioTransport.fromContext(app, '/mcp/staff').listen({ input, output });
    try {
      input.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } })}\n`,
      );
      const [line] = (await once(output, 'data')) as [Buffer];
      const tools = JSON.parse(line.toString('utf8')).result.tools.map((t: { name: string }) => t.name);
      expect(tools.sort()).toEqual(['confirm', 'refund']);
      expect(() => McpStdioTransport.fromContext(app, '/elsewhere')).toThrow(
        'No MCP server at path /elsewhere (this application serves /mcp, /mcp/staff)',
      );
    } finally {
      await connection.close();
      await app.close();
    }
  });
});

describe('two MCP servers on one path', () => {
  it('fail at startup with a message naming the path', async () => {
    const module = twoServersModule({ issuer: provider.issuer, audience: 'http://127.0.0.1/mcp' }, { path: '/mcp' });
    const app = await NestFactory.create(module, new ExpressAdapter(), { logger: false, abortOnError: false });
    await expect(app.init()).rejects.toThrow(
      'Two MCP servers are mounted on /mcp: give each McpModule.forRoot of this application its own `path`',
    );
    await app.close().catch(() => undefined);
  });
});
