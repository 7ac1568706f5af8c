import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { OidcTestProvider } from './oidc-test-provider.js';
import { handlerRuns, ordersAppModule } from './support/orders-app.fixture.js';
import { mcp, parseBearerChallenge } from './support/oauth2-http.js';
import { freePort } from '../support/free-port.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';

const ALL_SCOPES = ['mcp:tools', 'orders:read', 'orders:write'];
const DOCS = 'https://docs.example.com/orders-mcp';

describe.each(ADAPTERS)('an MCP server protected by McpOAuth2Module, with a real OpenID provider (%s)', (adapter) => {
  let provider: OidcTestProvider;
  let server: RunningApp;
  let audience: string;
  let metadataUrl: string;
  const tokens: Record<'alice' | 'bob' | 'carol', string> = { alice: '', bob: '', carol: '' };

  beforeAll(async () => {
    provider = await OidcTestProvider.start();
    const port = await freePort();
    audience = `http://127.0.0.1:${port}/mcp`;
    metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
    const module = ordersAppModule({
      oauth2: {
        issuer: provider.issuer,
        audience,
        requiredScopes: ['mcp:tools'],
        resourceDocumentation: DOCS,
        resourceName: 'Orders',
      },
    });
    server = await startApp(module, adapter, { port });
    for (const subject of ['alice', 'bob', 'carol'] as const) {
      tokens[subject] = await provider.clientCredentials(subject, { resource: audience });
    }
  });
  afterAll(async () => {
    await server?.close();
    await provider?.stop();
  });
  beforeEach(() => {
    handlerRuns.length = 0;
  });

  describe('protected resource metadata (RFC 9728)', () => {
    const expected = (): object => ({
      resource: audience,
      authorization_servers: [provider.issuer],
      scopes_supported: ALL_SCOPES,
      bearer_methods_supported: ['header'],
      resource_documentation: DOCS,
      resource_name: 'Orders',
    });

    it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
      'is served at %s without a token',
      async (path) => {
        const response = await fetch(`${server.origin}${path}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        const document = (await response.json()) as Record<string, unknown>;
        expect(document).toEqual(expected());
        expect(document['scopes_supported']).not.toContain('offline_access');
      },
    );

    it('is where the 401 challenge points, and names an authorization server that really issues our tokens', async () => {
      const challenge = parseBearerChallenge((await mcp(server.url, 'tools/list')).headers.get('www-authenticate'));
      const document = (await (await fetch(challenge['resource_metadata']!)).json()) as {
        authorization_servers: string[];
      };
      const [authorizationServer] = document.authorization_servers;
      const discovery = (await (await fetch(`${authorizationServer}/.well-known/openid-configuration`)).json()) as {
        issuer: string;
      };
      expect(discovery.issuer).toBe(provider.issuer);
    });
  });

  describe('challenges', () => {
    it('answers a request without a token with 401, resource_metadata and scope, and no error code', async () => {
      const reply = await mcp(server.url, 'tools/call', { name: 'whoami', arguments: {} });
      expect(reply.status).toBe(401);
      const challenge = reply.headers.get('www-authenticate');
      expect(challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"`);
      expect(handlerRuns).toEqual([]);
    });

    it('ignores a token in the query string', async () => {
      const reply = await mcp(`${server.url}?access_token=${tokens.alice}`, 'tools/list');
      expect(reply.status).toBe(401);
      expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).not.toHaveProperty('error');
    });

    it('answers an expired token with 401 invalid_token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const expired = await provider.signAccessToken({
        sub: 'alice',
        aud: audience,
        scope: ALL_SCOPES.join(' '),
        iat: now - 600,
        exp: now - 120,
      });
      const reply = await mcp(server.url, 'tools/list', {}, { token: expired });
      expect(reply.status).toBe(401);
      expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).toEqual({
        error: 'invalid_token',
        error_description: 'The access token expired',
        resource_metadata: metadataUrl,
        scope: 'mcp:tools',
      });
    });

    it('answers a token issued for another resource (wrong audience) with 401 invalid_token', async () => {
      const elsewhere = await provider.clientCredentials('alice', { resource: 'https://other.example.com/api' });
      const reply = await mcp(server.url, 'tools/list', {}, { token: elsewhere });
      expect(reply.status).toBe(401);
      expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).toMatchObject({
        error: 'invalid_token',
        resource_metadata: metadataUrl,
      });
    });

    it('answers a tampered token with 401 invalid_token', async () => {
      const [header, payload, signature] = tokens.alice.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'bob' })).toString('base64url')}.${signature}`;
      const reply = await mcp(server.url, 'tools/list', {}, { token: forged });
      expect(reply.status).toBe(401);
      expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).toMatchObject({ error: 'invalid_token' });
    });

    it('answers a valid token without the required scope with 403 insufficient_scope', async () => {
      const narrow = await provider.clientCredentials('alice', { resource: audience, scope: 'orders:read' });
      const reply = await mcp(server.url, 'tools/list', {}, { token: narrow });
      expect(reply.status).toBe(403);
      expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).toEqual({
        error: 'insufficient_scope',
        error_description: 'The access token lacks a required scope',
        resource_metadata: metadataUrl,
        scope: 'mcp:tools',
      });
    });
  });

  describe('per-tool scopes', () => {
    it('lists every tool to a caller holding every scope', async () => {
      const reply = await mcp(server.url, 'tools/list', {}, { token: tokens.alice });
      expect(reply.status).toBe(200);
      expect(reply.body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
        'confirm',
        'list_orders',
        'place_order',
        'whoami',
      ]);
    });

    it('hides the tools a caller may not use', async () => {
      const reply = await mcp(server.url, 'tools/list', {}, { token: tokens.carol });
      expect(reply.body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
        'confirm',
        'list_orders',
        'whoami',
      ]);
    });

    it('refuses the call with 403 naming every scope it needs, without running the handler', async () => {
      const reply = await mcp(
        server.url,
        'tools/call',
        { name: 'place_order', arguments: { item: 'book' } },
        { token: tokens.carol },
      );
      expect(reply.status).toBe(403);
      expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).toMatchObject({
        error: 'insufficient_scope',
        scope: 'mcp:tools orders:write',
        resource_metadata: metadataUrl,
      });
      expect(handlerRuns).toEqual([]);
    });

    it('gates prompts the same way', async () => {
      const names = async (token: string): Promise<string[]> =>
        (await mcp(server.url, 'prompts/list', {}, { token })).body.result.prompts
          .map((p: { name: string }) => p.name)
          .sort();
      expect(await names(tokens.alice)).toEqual(['greeting', 'refund_letter']);
      expect(await names(tokens.carol)).toEqual(['greeting']);
      const refused = await mcp(
        server.url,
        'prompts/get',
        { name: 'refund_letter', arguments: {} },
        { token: tokens.carol },
      );
      expect(refused.status).toBe(403);
      expect(parseBearerChallenge(refused.headers.get('www-authenticate'))).toMatchObject({
        error: 'insufficient_scope',
        scope: 'mcp:tools orders:write',
      });
      const allowed = await mcp(
        server.url,
        'prompts/get',
        { name: 'refund_letter', arguments: {} },
        { token: tokens.alice },
      );
      expect(allowed.body.result.messages).toHaveLength(1);
    });

    it('lets a caller use the scoped tools it holds scopes for', async () => {
      const reply = await mcp(
        server.url,
        'tools/call',
        { name: 'list_orders', arguments: {} },
        { token: tokens.carol },
      );
      expect(reply.body.result.content).toEqual([{ type: 'text', text: 'no orders yet' }]);
    });
  });

  describe('the principal binding of requestState', () => {
    it('puts the token subject on the request', async () => {
      const reply = await mcp(server.url, 'tools/call', { name: 'whoami', arguments: {} }, { token: tokens.bob });
      expect(reply.body.result.structuredContent).toEqual({ sub: 'bob', scopes: ALL_SCOPES });
    });

    it("rejects alice's requestState replayed with bob's token, without running the handler; alice completes her flow", async () => {
      const call = { name: 'place_order', arguments: { item: 'book' } };
      const first = await mcp(server.url, 'tools/call', call, { token: tokens.alice });
      expect(first.status).toBe(200);
      expect(first.body.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          'elicit-1': { method: 'elicitation/create', params: { message: 'Place an order for book?' } },
        },
      });
      const requestState: string = first.body.result.requestState;
      expect(typeof requestState).toBe('string');
      expect(handlerRuns).toEqual([{ tool: 'place_order', sub: 'alice' }]);

      const retry = {
        ...call,
        requestState,
        inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
      };
      const stolen = await mcp(server.url, 'tools/call', retry, { token: tokens.bob });
      expect(stolen.body.error).toMatchObject({ code: -32602, data: { reason: 'principal_mismatch' } });
      expect(stolen.body.result).toBeUndefined();
      expect(handlerRuns).toHaveLength(1);

      const completed = await mcp(server.url, 'tools/call', retry, { token: tokens.alice });
      expect(completed.status).toBe(200);
      expect(completed.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'placed book for alice' }],
      });
      expect(handlerRuns).toEqual([
        { tool: 'place_order', sub: 'alice' },
        { tool: 'place_order', sub: 'alice' },
      ]);
    });

    it('lets the official client complete an elicitation flow with a bearer token', async () => {
      const authorized: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${tokens.alice}`);
        return fetch(input, { ...init, headers });
      };
      const client = new Client(
        { name: 'oauth2-e2e-official', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } } as never, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const questions: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        questions.push((request.params as { message: string }).message);
        return { action: 'accept', content: { ok: true } };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: authorized }));
      try {
        const result = await client.callTool({ name: 'place_order', arguments: { item: 'lamp' } });
        expect(result.content).toEqual([{ type: 'text', text: 'placed lamp for alice' }]);
        expect(questions).toEqual(['Place an order for lamp?']);
      } finally {
        await client.close();
      }
    });
  });
});

describe('a token that expires while in use (short-lived tokens from the provider, no clock tolerance)', () => {
  let provider: OidcTestProvider;
  let server: RunningApp;
  let audience: string;

  beforeAll(async () => {
    provider = await OidcTestProvider.start({ accessTokenTtlSeconds: 2 });
    const port = await freePort();
    audience = `http://127.0.0.1:${port}/mcp`;
    server = await startApp(
      ordersAppModule({ oauth2: { issuer: provider.issuer, audience, clockToleranceSeconds: 0 } }),
      'express',
      { port },
    );
  });
  afterAll(async () => {
    await server?.close();
    await provider?.stop();
  });

  it('is accepted while valid and answered with 401 invalid_token once expired', async () => {
    const token = await provider.clientCredentials('alice', { resource: audience });
    expect((await mcp(server.url, 'tools/list', {}, { token })).status).toBe(200);
    // exp = floor(issued) + 2, so 3.1 s after issuance it is past on any clock reading.
    await new Promise((resolve) => setTimeout(resolve, 3100));
    const reply = await mcp(server.url, 'tools/list', {}, { token });
    expect(reply.status).toBe(401);
    expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).toMatchObject({
      error: 'invalid_token',
      error_description: 'The access token expired',
    });
  });
});
