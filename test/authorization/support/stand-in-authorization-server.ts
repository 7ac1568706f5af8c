import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Adapter, AdapterPayload, Configuration } from 'oidc-provider';
import { trustingFetch } from './test-ca.js';

export interface StandInAuthorizationServerOptions {
  /** Scopes of the MCP server (the access tokens' `scope`). */
  readonly scopes: readonly string[];
  /** The test CA: Client ID Metadata Documents are fetched trusting it (and nothing else). */
  readonly caPem: string;
}

/**
 * A plain oidc-provider on http://127.0.0.1 (ephemeral port) standing in for
 * `McpAuthorizationServerModule` while it does not exist: DCR (RFC 7591), CIMD (draft-02),
 * PKCE, RFC 9207 `iss`, JWT access tokens for the `resource` asked for; its own development
 * login and consent forms (no upstream). It lets the smoke spec prove that the official client
 * helpers (`connectWithSignIn`) work; the real suites use the module instead.
 *
 * CIMD documents are fetched with `trustingFetch(caPem)`, which also skips oidc-provider's SSRF
 * guard (it refuses loopback addresses, where the test's metadata server lives).
 */
export class StandInAuthorizationServer {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly restoreConsole: () => void,
  ) {}

  static async start(options: StandInAuthorizationServerOptions): Promise<StandInAuthorizationServer> {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: 'stand-in-es256', alg: 'ES256', use: 'sig' };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const store = new Map<string, AdapterPayload>();
    const caFetch = trustingFetch(options.caPem);
    const configuration: Configuration = {
      jwks: { keys: [signingJwk] },
      cookies: { keys: [randomBytes(32).toString('hex')] },
      clientDefaults: { id_token_signed_response_alg: 'ES256' },
      scopes: ['openid', 'offline_access', ...options.scopes],
      pkce: { required: () => true },
      findAccount: async (_ctx, accountId) => ({ accountId, claims: async () => ({ sub: accountId }) }),
      fetch: (url, init) => caFetch(url, init),
      features: {
        devInteractions: { enabled: true },
        registration: { enabled: true },
        clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => undefined,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx, resourceIndicator) => ({
            audience: resourceIndicator,
            scope: options.scopes.join(' '),
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
      },
      ttl: {
        AccessToken: 600,
        Grant: 3600,
        Interaction: 600,
        RefreshToken: 3600,
        Session: 3600,
        IdToken: 600,
      },
      renderError: (ctx, out) => {
        ctx.type = 'json';
        ctx.body = out;
      },
      adapter: (model: string): Adapter => ({
        upsert: async (id, payload) => void store.set(`${model}:${id}`, payload),
        find: async (id) => store.get(`${model}:${id}`),
        findByUid: async (uid) => [...store.values()].find((payload) => payload.uid === uid),
        findByUserCode: async () => undefined,
        consume: async (id) => {
          const payload = store.get(`${model}:${id}`);
          if (payload) payload.consumed = Math.floor(Date.now() / 1000);
        },
        destroy: async (id) => void store.delete(`${model}:${id}`),
        revokeByGrantId: async () => undefined,
      }),
    };
    const { default: Provider } = await import('oidc-provider');
    const { warn, info } = console;
    console.warn = console.info = () => undefined;
    try {
      const provider = new Provider(issuer, configuration);
      server.on('request', provider.callback());
    } finally {
      console.info = info;
      // Under Jest oidc-provider cannot find undici's global dispatcher, so it warns on its first
      // fetch that its SSRF guard is off; the stand-in does not rely on it (see `fetch` above).
      console.warn = (...args: unknown[]) => {
        if (typeof args[0] === 'string' && args[0].includes('failed to setup SSRF protection')) return;
        warn(...args);
      };
    }
    return new StandInAuthorizationServer(server, issuer, () => (console.warn = warn));
  }

  async stop(): Promise<void> {
    this.restoreConsole();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
