import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { McpClientError } from '../../src/client/index.js';
import { ALICE, BOB, OidcTestProvider } from '../oauth2/oidc-test-provider.js';
import { ordersAppModule } from '../oauth2/support/orders-app.fixture.js';
import { freePort } from '../support/free-port.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { startForecastApp } from './support/forecast.fixture.js';
import { startTokenExchangeEndpoint, type TokenExchangeEndpoint } from './support/token-exchange-endpoint.js';

/** The audience of the callers' tokens: this application's own MCP endpoint. */
const OUR_AUDIENCE = 'https://gateway.example.com/mcp';
const GATEWAY_CLIENT = { id: 'gateway', secret: 'gateway-secret-0123456789' };
const PIN_2026 = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

describe.each(ADAPTERS)("McpClientModule: the caller's identity by token exchange (RFC 8693) (%s)", (adapter) => {
  let provider: OidcTestProvider;
  let upstream: RunningApp;
  let endpoint: TokenExchangeEndpoint;
  let audience: string;
  const callerTokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

  beforeAll(async () => {
    provider = await OidcTestProvider.start();
    const port = await freePort();
    audience = `http://127.0.0.1:${port}/mcp`;
    upstream = await startApp(
      ordersAppModule({ oauth2: { issuer: provider.issuer, audience, requiredScopes: ['mcp:tools'] } }),
      adapter,
      { port },
    );
    endpoint = await startTokenExchangeEndpoint(provider, GATEWAY_CLIENT, OUR_AUDIENCE);
    callerTokens.alice = await provider.clientCredentials(ALICE.id, { resource: OUR_AUDIENCE });
    callerTokens.bob = await provider.clientCredentials(BOB.id, { resource: OUR_AUDIENCE });
  });
  afterAll(async () => {
    await upstream?.close();
    await endpoint?.close();
    await provider?.stop();
  });

  it("calls as each caller with an exchanged token, one exchange per caller, never the caller's own token", async () => {
    const caller = new AsyncLocalStorage<string>();
    const { app, forecast } = await startForecastApp({
      url: audience,
      clientOptions: PIN_2026,
      auth: {
        tokenExchange: {
          tokenEndpoint: endpoint.url,
          clientId: GATEWAY_CLIENT.id,
          clientSecret: GATEWAY_CLIENT.secret,
          subjectToken: () => caller.getStore(),
        },
      },
    });
    const whoami = async (): Promise<string> => {
      const client = await forecast.upstream.client();
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      return (result.structuredContent as { sub: string }).sub;
    };
    try {
      expect(await caller.run(callerTokens.alice, whoami)).toBe('alice');
      expect(await caller.run(callerTokens.bob, whoami)).toBe('bob');
      expect(await caller.run(callerTokens.alice, whoami)).toBe('alice');
      expect(endpoint.exchanges).toEqual([
        { sub: 'alice', resource: audience },
        { sub: 'bob', resource: audience },
      ]);
      const error = await whoami().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ failure: 'unauthorized' });
      expect((error as Error).message).toContain('no caller token to exchange');
    } finally {
      await app.close();
    }
  });

  it("the caller's own token, passed through, is refused by the server (it is not meant for it)", async () => {
    const { app, forecast } = await startForecastApp({ url: audience, auth: { token: callerTokens.alice } });
    try {
      const error = await forecast.callText('whoami').catch((e: unknown) => e);
      expect(error).toMatchObject({ failure: 'unauthorized' });
    } finally {
      await app.close();
    }
  });
});
