import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';

/** An OAuth client of the test provider, allowed the client-credentials grant. */
export interface OidcTestClient {
  readonly id: string;
  readonly secret: string;
  /** Scopes the client may ask for, space-separated. */
  readonly scope: string;
}

export interface OidcTestProviderOptions {
  /** Default: alice and bob (every scope) and carol (every scope but `orders:write`). */
  readonly clients?: readonly OidcTestClient[];
  /** Scopes of the resource servers. Default `mcp:tools orders:read orders:write`. */
  readonly scopes?: readonly string[];
  /** Lifetime of issued access tokens. Default 300 s. */
  readonly accessTokenTtlSeconds?: number;
}

export const DEFAULT_SCOPES = ['mcp:tools', 'orders:read', 'orders:write'] as const;

export const ALICE: OidcTestClient = {
  id: 'alice',
  secret: 'alice-secret-0123456789',
  scope: DEFAULT_SCOPES.join(' '),
};
export const BOB: OidcTestClient = { id: 'bob', secret: 'bob-secret-0123456789', scope: DEFAULT_SCOPES.join(' ') };
export const CAROL: OidcTestClient = { id: 'carol', secret: 'carol-secret-0123456789', scope: 'mcp:tools orders:read' };

const SIGNING_KID = 'oidc-test-es256';

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1, on an ephemeral port, for
 * e2e tests of resource servers. It issues client-credentials access tokens as JWTs (RFC 9068)
 * for whatever resource indicator (RFC 8707) the client asks for; for client credentials the
 * token's `sub` is the client id. It also signs arbitrary access tokens with its own key, for
 * cases a correct provider never produces (an already expired token, say).
 *
 * ```ts
 * const provider = await OidcTestProvider.start();
 * const token = await provider.clientCredentials('alice', { resource: 'http://127.0.0.1:3000/mcp' });
 * await provider.stop();
 * ```
 */
export class OidcTestProvider {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly clients: readonly OidcTestClient[],
    private readonly signingJwk: JWK,
  ) {}

  static async start(options: OidcTestProviderOptions = {}): Promise<OidcTestProvider> {
    const clients = options.clients ?? [ALICE, BOB, CAROL];
    const scopes = options.scopes ?? DEFAULT_SCOPES;
    const ttl = options.accessTokenTtlSeconds ?? 300;

    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: SIGNING_KID, alg: 'ES256', use: 'sig' };

    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const { default: Provider } = await quietly(() => import('oidc-provider'));
    const provider = await quietly(
      async () =>
        new Provider(issuer, {
          jwks: { keys: [signingJwk] },
          clientDefaults: { id_token_signed_response_alg: 'ES256' },
          clients: clients.map((client) => ({
            client_id: client.id,
            client_secret: client.secret,
            grant_types: ['client_credentials'],
            redirect_uris: [],
            response_types: [],
            scope: client.scope,
            token_endpoint_auth_method: 'client_secret_basic',
          })),
          scopes: [...scopes],
          ttl: { AccessToken: ttl, ClientCredentials: ttl },
          features: {
            devInteractions: { enabled: false },
            clientCredentials: { enabled: true },
            introspection: { enabled: false },
            revocation: { enabled: false },
            resourceIndicators: {
              enabled: true,
              defaultResource: async () => undefined,
              useGrantedResource: async () => true,
              getResourceServerInfo: async (_ctx: unknown, resourceIndicator: string) => ({
                audience: resourceIndicator,
                scope: scopes.join(' '),
                accessTokenTTL: ttl,
                accessTokenFormat: 'jwt',
                jwt: { sign: { alg: 'ES256' } },
              }),
            },
          },
          adapter: MemoryAdapter,
        }),
    );
    server.on('request', provider.callback());
    return new OidcTestProvider(server, issuer, clients, signingJwk);
  }

  get jwksUri(): string {
    return `${this.issuer}/jwks`;
  }

  /**
   * Obtains an access token with the client-credentials grant for `resource`. `scope` defaults
   * to every scope the client may ask for.
   */
  async clientCredentials(clientId: string, request: { resource: string; scope?: string }): Promise<string> {
    const response = await this.tokenRequest(clientId, request);
    if (response.status !== 200)
      throw new Error(`token endpoint: HTTP ${response.status} ${JSON.stringify(response.body)}`);
    return response.body['access_token'] as string;
  }

  /** The raw token endpoint response, for tests of the provider itself. */
  async tokenRequest(
    clientId: string,
    request: { resource: string; scope?: string },
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const client = this.clients.find((c) => c.id === clientId);
    if (!client) throw new Error(`OidcTestProvider: no client ${clientId}`);
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: request.resource,
        scope: request.scope ?? client.scope,
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /**
   * Signs an access token with the provider's own key, as the provider would (`iss`, `kid`,
   * `typ: at+jwt`). Claims override the defaults (a 5-minute lifetime from now).
   */
  async signAccessToken(claims: JWTPayload & { aud: string | string[]; sub: string }): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const key = await importJWK(this.signingJwk, 'ES256');
    return new SignJWT({ iss: this.issuer, iat: now, exp: now + 300, jti: `test-${now}-${Math.random()}`, ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: SIGNING_KID })
      .sign(key);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** oidc-provider's minimal storage contract, in memory (keeps its development warning quiet). */
class MemoryAdapter {
  private static readonly store = new Map<string, { payload: Record<string, unknown>; expiresAt?: number }>();

  constructor(private readonly model: string) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
    MemoryAdapter.store.set(this.key(id), {
      payload,
      expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined,
    });
  }

  async find(id: string): Promise<Record<string, unknown> | undefined> {
    const entry = MemoryAdapter.store.get(this.key(id));
    if (!entry || (entry.expiresAt !== undefined && entry.expiresAt < Date.now())) return undefined;
    return entry.payload;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async findByUid(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const entry = MemoryAdapter.store.get(this.key(id));
    if (entry) entry.payload['consumed'] = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    MemoryAdapter.store.delete(this.key(id));
  }

  async revokeByGrantId(): Promise<void> {}
}

/**
 * oidc-provider prints notices about its runtime and development defaults; they say nothing
 * about the code under test, so they are muted while it loads and starts.
 */
async function quietly<T>(action: () => Promise<T>): Promise<T> {
  const { warn, info } = console;
  const filter =
    (original: (...args: unknown[]) => void) =>
    (...args: unknown[]): void => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider ')) return;
      original(...args);
    };
  console.warn = filter(warn);
  console.info = filter(info);
  try {
    return await action();
  } finally {
    console.warn = warn;
    console.info = info;
  }
}
