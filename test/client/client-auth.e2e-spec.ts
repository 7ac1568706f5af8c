import type { CallToolResult } from '@modelcontextprotocol/client';
import { McpClientError, type McpClientServerOptions } from '../../src/client/index.js';
import { ALICE, BOB, OidcTestProvider } from '../oauth2/oidc-test-provider.js';
import { ordersAppModule } from '../oauth2/support/orders-app.fixture.js';
import { freePort } from '../support/free-port.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { startForecastApp } from './support/forecast.fixture.js';
import { startRecordingProxy } from './support/http-proxy.js';

const PIN_2026 = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

/** Who the protected server says is calling (its `whoami` tool), through McpClientModule. */
async function whoami(options: McpClientServerOptions, calls = 1): Promise<string[]> {
  const { app, forecast } = await startForecastApp(options);
  try {
    const subjects: string[] = [];
    for (let i = 0; i < calls; i++) {
      const client = await forecast.upstream.client();
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      subjects.push((result.structuredContent as { sub: string }).sub);
    }
    return subjects;
  } finally {
    await app.close();
  }
}

describe.each(ADAPTERS)(
  'McpClientModule: credentials per server, against a server protected by a real OpenID provider (%s)',
  (adapter) => {
    let provider: OidcTestProvider;
    let server: RunningApp;
    let audience: string;

    beforeAll(async () => {
      provider = await OidcTestProvider.start();
      const port = await freePort();
      audience = `http://127.0.0.1:${port}/mcp`;
      server = await startApp(
        ordersAppModule({ oauth2: { issuer: provider.issuer, audience, requiredScopes: ['mcp:tools'] } }),
        adapter,
        { port },
      );
    });
    afterAll(async () => {
      await server?.close();
      await provider?.stop();
    });

    it('without credentials: unauthorized', async () => {
      const error = await whoami({ url: audience }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ failure: 'unauthorized', server: 'upstream' });
    });

    it.each([
      ['the default settings', {}],
      ['2026-07-28 pinned', { clientOptions: PIN_2026 }],
    ])('a static bearer token, with %s', async (_label, options) => {
      const token = await provider.clientCredentials(ALICE.id, { resource: audience });
      expect(await whoami({ url: audience, auth: { token }, ...options }, 2)).toEqual(['alice', 'alice']);
    });

    it('a function returning the token, asked before every request', async () => {
      const token = await provider.clientCredentials(ALICE.id, { resource: audience });
      let asked = 0;
      const subjects = await whoami({ url: audience, auth: { token: async () => (asked++, token) } }, 2);
      expect(subjects).toEqual(['alice', 'alice']);
      expect(asked).toBeGreaterThanOrEqual(3);
    });

    it.each([
      ['the default settings', {}],
      ['2026-07-28 pinned', { clientOptions: PIN_2026 }],
    ])(
      'client credentials for the server URL as resource, one token for many calls, with %s',
      async (_label, options) => {
        const tokenEndpoint = await startRecordingProxy(`${provider.issuer}/token`);
        try {
          const auth = {
            clientCredentials: {
              tokenEndpoint: tokenEndpoint.url,
              clientId: BOB.id,
              clientSecret: BOB.secret,
              scope: 'mcp:tools',
            },
          };
          expect(await whoami({ url: audience, auth, ...options }, 3)).toEqual(['bob', 'bob', 'bob']);
          expect(tokenEndpoint.seen).toEqual([{ method: 'POST' }]);
        } finally {
          await tokenEndpoint.close();
        }
      },
    );

    it('client credentials granting too little scope: unauthorized', async () => {
      const auth = {
        clientCredentials: {
          tokenEndpoint: `${provider.issuer}/token`,
          clientId: BOB.id,
          clientSecret: BOB.secret,
          scope: 'orders:read',
        },
      };
      const error = await whoami({ url: audience, auth }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ failure: 'unauthorized', server: 'upstream' });
    });

    it('client credentials with a wrong secret: unauthorized, naming the token endpoint error', async () => {
      const auth = {
        clientCredentials: {
          tokenEndpoint: `${provider.issuer}/token`,
          clientId: BOB.id,
          clientSecret: 'not-the-secret',
        },
      };
      const error = await whoami({ url: audience, auth }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ failure: 'unauthorized', server: 'upstream' });
      expect((error as Error).message).toMatch(
        /token endpoint refused the client credentials request \(invalid_client: client authentication failed\)/,
      );
    });
  },
);

describe('McpClientModule: a client-credentials token is fetched again as it nears its expiry', () => {
  it('a 2-second token serves the calls of its first second, then a new one is fetched', async () => {
    const provider = await OidcTestProvider.start({ accessTokenTtlSeconds: 2 });
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    const server = await startApp(
      ordersAppModule({ oauth2: { issuer: provider.issuer, audience, requiredScopes: ['mcp:tools'] } }),
      'fastify',
      { port },
    );
    const tokenEndpoint = await startRecordingProxy(`${provider.issuer}/token`);
    const { app, forecast } = await startForecastApp({
      url: audience,
      clientOptions: PIN_2026,
      auth: {
        clientCredentials: {
          tokenEndpoint: tokenEndpoint.url,
          clientId: ALICE.id,
          clientSecret: ALICE.secret,
          scope: 'mcp:tools',
        },
      },
    });
    try {
      const client = await forecast.upstream.client();
      await client.callTool({ name: 'whoami', arguments: {} });
      await client.callTool({ name: 'whoami', arguments: {} });
      expect(tokenEndpoint.seen).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ sub: 'alice' });
      expect(tokenEndpoint.seen).toHaveLength(2);
    } finally {
      await app.close();
      await tokenEndpoint.close();
      await server.close();
      await provider.stop();
    }
  });
});
