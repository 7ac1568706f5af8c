import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Adapter, AdapterPayload, Configuration } from 'oidc-provider';
import { trustingFetch, type TlsMaterial } from './test-ca.js';

/** A person the upstream knows; any login name is accepted, these have nicer names. */
export interface UpstreamUser {
  readonly sub: string;
  readonly name: string;
  readonly email: string;
}

const KNOWN_NAMES: Readonly<Record<string, string>> = {
  ada: 'Ada Lovelace',
  grace: 'Grace Hopper',
  alan: 'Alan Turing',
  mallory: 'Mallory Malicious',
};

/** The claims the upstream asserts for a login name: `sub` is the login, `email` is `<login>@example.com`. */
export function upstreamUser(login: string): UpstreamUser {
  const name = KNOWN_NAMES[login] ?? `${login.charAt(0).toUpperCase()}${login.slice(1)} Testuser`;
  return { sub: login, name, email: `${login}@example.com` };
}

export interface UpstreamIdpOptions {
  /** Redirect URIs registered for the one confidential client (more with `allowRedirectUri`). */
  readonly redirectUris: readonly string[];
  /** HTTPS material from `createTestCa()`. */
  readonly tls: TlsMaterial;
  /** The tenant segment of the issuer path. Default `tenant-1`. */
  readonly tenant?: string;
  /** Default `client_secret_post` (what Entra's docs show; openid-client's default). */
  readonly tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  /** Default `upstream-client-<random>`. */
  readonly clientId?: string;
}

export interface UpstreamTokenSet {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in?: number;
  readonly id_token?: string;
  readonly refresh_token?: string;
  readonly scope?: string;
}

/** What the upstream's authorization endpoint sent back to the redirect URI. */
export interface UpstreamAuthorizationResult {
  readonly redirectUri: string;
  readonly codeVerifier: string;
  readonly state: string;
  /** The query of the final redirect (`code`, `state`, `iss`, or `error`). */
  readonly query: URLSearchParams;
}

/** The scope of the upstream's one API (a resource server on the upstream's side, Graph-like). */
export const UPSTREAM_API_SCOPE = 'User.Read';

/**
 * An Entra-like upstream identity provider: a real oidc-provider over HTTPS on 127.0.0.1
 * (ephemeral port) whose issuer has a path (`https://127.0.0.1:<port>/<tenant>/v2.0`, discovery at
 * `<issuer>/.well-known/openid-configuration`), no dynamic registration, no Client ID Metadata
 * Documents, one confidential client (code flow, PKCE S256 required, `openid profile email
 * offline_access`), ID tokens carrying `sub`, `name`, `email`. Its sign-in page is oidc-provider's
 * development form (`input[name=login]`, `input[name=password]`, any login accepted, password
 * ignored) followed by its own consent form ("Continue") the first time a session meets the client.
 *
 * Access tokens are opaque (for its userinfo) unless a `resource` is asked for: then they are
 * RS256 JWTs (`typ: at+jwt`) with that audience and scope `User.Read`, signed by the key of its
 * `jwks_uri`: the shape of a token a confused MCP server might wrongly accept.
 *
 * ```ts
 * const idp = await UpstreamIdp.start({ redirectUris: [`${appOrigin}/oauth/callback`], tls: ca });
 * const tokens = await idp.userTokens('ada', { resource: mcpUrl }); // no browser needed
 * await idp.stop();
 * ```
 */
export class UpstreamIdp {
  /** Internal errors oidc-provider reported (its `server_error` event): a test can expect none. */
  readonly errors: { event: string; message: string }[] = [];
  private readonly redirectUris: Set<string>;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
    readonly tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post',
    redirectUris: readonly string[],
    private readonly caPem: string,
  ) {
    this.redirectUris = new Set(redirectUris);
  }

  static async start(options: UpstreamIdpOptions): Promise<UpstreamIdp> {
    const tenant = options.tenant ?? 'tenant-1';
    const clientId = options.clientId ?? `upstream-client-${randomBytes(4).toString('hex')}`;
    const clientSecret = randomBytes(24).toString('base64url');
    const authMethod = options.tokenEndpointAuthMethod ?? 'client_secret_post';

    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: `upstream-${tenant}`, alg: 'RS256', use: 'sig' };

    const server = createServer({ key: options.tls.key, cert: options.tls.cert });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const prefix = `/${tenant}/v2.0`;
    const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;

    const idp = new UpstreamIdp(
      server,
      issuer,
      clientId,
      clientSecret,
      authMethod,
      options.redirectUris,
      options.tls.caPem,
    );
    const store = new Map<string, StoredEntry>();
    const configuration: Configuration = {
      jwks: { keys: [signingJwk] },
      cookies: { keys: [randomBytes(32).toString('hex')] },
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          client_name: 'MCP authorization server (upstream registration)',
          redirect_uris: [...options.redirectUris],
          response_types: ['code'],
          grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
          token_endpoint_auth_method: authMethod,
          id_token_signed_response_alg: 'RS256',
        },
      ],
      scopes: ['openid', 'profile', 'email', 'offline_access', UPSTREAM_API_SCOPE],
      claims: {
        openid: ['sub', 'tid'],
        profile: ['name', 'preferred_username'],
        email: ['email', 'email_verified'],
      },
      // Entra puts the profile and email claims in the ID token, even when an access token is issued.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      findAccount: async (_ctx, accountId) => ({
        accountId,
        claims: async () => {
          const user = upstreamUser(accountId);
          return {
            sub: user.sub,
            tid: tenant,
            name: user.name,
            preferred_username: user.email,
            email: user.email,
            email_verified: true,
          };
        },
      }),
      features: {
        devInteractions: { enabled: true },
        registration: { enabled: false },
        clientIdMetadataDocument: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: false },
        revocation: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => undefined,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx, resourceIndicator) => ({
            audience: resourceIndicator,
            scope: UPSTREAM_API_SCOPE,
            accessTokenTTL: 3600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      ttl: {
        AccessToken: 3600,
        ClientCredentials: 3600,
        IdToken: 3600,
        Grant: 86_400,
        Interaction: 600,
        RefreshToken: 86_400,
        Session: 86_400,
      },
      // An error page of the upstream (the browser helper stops on it): the error and its description.
      renderError: (ctx, out) => {
        ctx.type = 'html';
        ctx.body = `<!doctype html><title>Sign-in error</title><h1>Sign-in error</h1><pre>${escapeHtml(
          Object.entries(out)
            .map(([key, value]) => `${key}: ${String(value)}`)
            .join('\n'),
        )}</pre>`;
      },
      adapter: (model: string) => new MemoryAdapter(store, model),
    };

    const { default: Provider } = await quietly(() => import('oidc-provider'));
    const provider = await quietly(async () => new Provider(issuer, configuration));
    provider.on('server_error', (_ctx, error) =>
      idp.errors.push({ event: 'server_error', message: String(error?.stack ?? error) }),
    );

    // Redirect URIs registered after start (the app's port is often known only later).
    const client = await provider.Client.find(clientId);
    if (!client) throw new Error('UpstreamIdp: the static client did not load');
    client.redirectUriAllowed = (value: string) => idp.redirectUris.has(value);

    // Mounted under the issuer's path, as an Express app would mount it: oidc-provider routes on
    // the rest of the path and builds its URLs from what was stripped (req.originalUrl, baseUrl).
    const callback = provider.callback();
    server.on('request', (req, res) => {
      const url = req.url ?? '/';
      if (url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
        return;
      }
      Object.assign(req, { originalUrl: url, baseUrl: prefix });
      req.url = url.slice(prefix.length) || '/';
      void callback(req, res);
    });
    return idp;
  }

  get discoveryUrl(): string {
    return `${this.issuer}/.well-known/openid-configuration`;
  }

  /** Registers another redirect URI for the client (exact match, like the ones given at start). */
  allowRedirectUri(uri: string): void {
    this.redirectUris.add(uri);
  }

  /** A `fetch` for this process that trusts the upstream's certificate. */
  get fetch(): typeof fetch {
    return trustingFetch(this.caPem);
  }

  /**
   * Runs the authorization request headlessly over HTTP (no browser): the upstream's login form
   * with `login`, its consent form, and returns the redirect it ends with (never followed).
   * `redirectUri` defaults to the first registered one.
   */
  async authorize(
    login: string,
    options: { scope?: string; resource?: string; redirectUri?: string } = {},
  ): Promise<UpstreamAuthorizationResult> {
    const doFetch = this.fetch;
    const jar = new Map<string, string>();
    const redirectUri = options.redirectUri ?? [...this.redirectUris][0];
    if (!redirectUri) throw new Error('UpstreamIdp: no redirect URI registered');
    const codeVerifier = randomBytes(32).toString('base64url');
    const state = randomBytes(16).toString('base64url');
    const authorize = new URL(`${this.issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id: this.clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: options.scope ?? 'openid profile email offline_access',
      state,
      code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
      prompt: 'consent',
      ...(options.resource ? { resource: options.resource } : {}),
    }).toString();

    const send = async (url: string, form?: Record<string, string>): Promise<Response> => {
      const headers: Record<string, string> = {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
      };
      if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await doFetch(url, {
        method: form ? 'POST' : 'GET',
        headers,
        body: form ? new URLSearchParams(form).toString() : undefined,
        redirect: 'manual',
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        const name = pair!.slice(0, eq).trim();
        const value = pair!.slice(eq + 1).trim();
        if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    };

    let response = await send(authorize.href);
    for (let step = 0; step < 12; step++) {
      const location = response.headers.get('location');
      if (location) {
        await response.body?.cancel();
        const next = new URL(location, response.url || this.issuer).href;
        if (next.startsWith(redirectUri.split('?')[0]!) && !next.startsWith(this.issuer))
          return { redirectUri, codeVerifier, state, query: new URL(next).searchParams };
        response = await send(next);
        continue;
      }
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
      if (response.status !== 200 || !action || !prompt)
        throw new Error(`UpstreamIdp.authorize: stuck at HTTP ${response.status}: ${html.slice(0, 500)}`);
      const form: Record<string, string> =
        prompt === 'login' ? { prompt, login, password: 'any-password' } : { prompt };
      response = await send(decodeEntities(action), form);
    }
    throw new Error('UpstreamIdp.authorize: too many redirects');
  }

  /** Exchanges an authorization code at the token endpoint as the confidential client. */
  async exchangeCode(result: UpstreamAuthorizationResult, resource?: string): Promise<UpstreamTokenSet> {
    const code = result.query.get('code');
    if (!code) throw new Error(`UpstreamIdp: no code in ${result.query.toString()}`);
    return this.tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: result.redirectUri,
      code_verifier: result.codeVerifier,
      ...(resource ? { resource } : {}),
    });
  }

  /**
   * Tokens for a user, as the upstream's own client would get them after the user signed in:
   * headless authorization (see `authorize`) and code exchange. With `resource`, the access
   * token is a JWT for that audience (scope `User.Read`); without, an opaque userinfo token.
   */
  async userTokens(login: string, options: { resource?: string; scope?: string } = {}): Promise<UpstreamTokenSet> {
    const scope =
      options.scope ?? `openid profile email offline_access${options.resource ? ` ${UPSTREAM_API_SCOPE}` : ''}`;
    const result = await this.authorize(login, { scope, resource: options.resource });
    return this.exchangeCode(result, options.resource);
  }

  /** A client-credentials access token (a JWT, `sub` = the client id) for `resource`. */
  async clientCredentialsToken(resource: string): Promise<string> {
    const tokens = await this.tokenRequest({ grant_type: 'client_credentials', resource, scope: UPSTREAM_API_SCOPE });
    return tokens.access_token;
  }

  private async tokenRequest(params: Record<string, string>): Promise<UpstreamTokenSet> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams(params);
    if (this.tokenEndpointAuthMethod === 'client_secret_basic') {
      const credentials = `${encodeURIComponent(this.clientId)}:${encodeURIComponent(this.clientSecret)}`;
      headers['authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      body.set('client_id', this.clientId);
      body.set('client_secret', this.clientSecret);
    }
    const response = await this.fetch(`${this.issuer}/token`, { method: 'POST', headers, body: body.toString() });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200)
      throw new Error(`UpstreamIdp token endpoint: HTTP ${response.status} ${JSON.stringify(json)}`);
    return json as unknown as UpstreamTokenSet;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCharCode(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

interface StoredEntry {
  payload: AdapterPayload;
  expiresAt?: number;
}

/** oidc-provider's storage contract, in memory, one store per provider instance. */
class MemoryAdapter implements Adapter {
  constructor(
    private readonly store: Map<string, StoredEntry>,
    private readonly model: string,
  ) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : undefined;
    this.store.set(this.key(id), { payload, expiresAt });
    if (payload.uid)
      this.store.set(`${this.model}:uid:${payload.uid}`, { payload: { id } as AdapterPayload, expiresAt });
    if (payload.userCode)
      this.store.set(`${this.model}:userCode:${payload.userCode}`, { payload: { id } as AdapterPayload, expiresAt });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const entry = this.store.get(this.key(id));
    if (!entry || (entry.expiresAt !== undefined && entry.expiresAt < Date.now())) return undefined;
    return entry.payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const pointer = await this.find(`uid:${uid}`);
    return pointer ? this.find(String((pointer as { id: string }).id)) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const pointer = await this.find(`userCode:${userCode}`);
    return pointer ? this.find(String((pointer as { id: string }).id)) : undefined;
  }

  async consume(id: string): Promise<void> {
    const entry = this.store.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, entry] of this.store) if (entry.payload.grantId === grantId) this.store.delete(key);
  }
}

/** oidc-provider prints notices about its development defaults; they say nothing about the code under test. */
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
