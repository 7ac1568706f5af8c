import { Module, type Type } from '@nestjs/common';
import { McpModule } from '../../src/index.js';
import { McpAuthorizationServerModule } from '../../src/authorization-server/index.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';

// The metadata needs no upstream (it is only contacted when a user signs in): an in-process app.

function appModule(trustProxy: boolean): Type {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'orders', version: '1.0.0' }),
      McpAuthorizationServerModule.forRoot({
        issuer: 'https://mcp.example.com',
        resources: ['https://mcp.example.com/mcp'],
        upstream: { issuer: 'https://login.example.com/tenant/v2.0', clientId: 'orders', clientSecret: 'secret' },
        trustProxy,
      }),
    ],
  })
  class AppModule {}
  return AppModule;
}

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'mcp.example.com' };

describe.each(ADAPTERS)('the authorization server behind a TLS-terminating proxy, on %s', (adapter) => {
  const apps: RunningApp[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  async function metadata(trustProxy: boolean): Promise<Record<string, string>> {
    const app = await startApp(appModule(trustProxy), adapter);
    apps.push(app);
    const response = await fetch(`${new URL(app.url).origin}/.well-known/oauth-authorization-server`, {
      headers: FORWARDED,
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, string>;
  }

  it("with trustProxy, the endpoints are the proxy's https ones", async () => {
    const document = await metadata(true);
    expect(document['issuer']).toBe('https://mcp.example.com');
    expect(document['token_endpoint']).toBe('https://mcp.example.com/oauth/token');
    expect(document['authorization_endpoint']).toBe('https://mcp.example.com/oauth/authorize');
  });

  it('without it, X-Forwarded-* is ignored (a client could set it)', async () => {
    const document = await metadata(false);
    expect(document['token_endpoint']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/token$/);
  });
});
