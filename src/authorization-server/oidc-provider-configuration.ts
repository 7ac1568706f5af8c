import type { Adapter, AdapterPayload, Configuration, ErrorOut, KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { McpAuthorizationStore } from './mcp-authorization.store.js';
import type { ResolvedMcpAuthorizationServerOptions } from './mcp-authorization-server.options.js';
import { AuthorizationServerPath } from './authorization-server-routes.js';
import { clientMetadataFetch } from './client-metadata-fetch.js';
import { renderMessagePage } from './consent-page.js';
import type { UpstreamAccounts } from './upstream-accounts.js';

/** What the configuration needs besides the options. */
export interface ProviderParts {
  readonly store: McpAuthorizationStore;
  readonly accounts: UpstreamAccounts;
  readonly signingKeys: { keys: Record<string, unknown>[] };
  /** Throws `InvalidTarget` for a resource this server does not issue tokens for. */
  readonly invalidTarget: (message: string) => Error;
}

/**
 * The oidc-provider configuration of the authorization server: authorization code with PKCE (S256)
 * only, public clients by default, JWT access tokens bound to one of the MCP server URLs (RFC 8707),
 * rotating refresh tokens, DCR and Client ID Metadata Documents, our own interaction pages, the
 * records in the {@link McpAuthorizationStore}.
 */
export function providerConfiguration(
  options: ResolvedMcpAuthorizationServerOptions,
  parts: ProviderParts,
): Configuration {
  const { resources, scopes, ttl, clientMetadataDocuments: cimd } = options;
  const secure = options.issuer.startsWith('https:');
  return {
    adapter: (model: string) => storeAdapter(parts.store, model),
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      ...(client.clientName !== undefined && { client_name: client.clientName }),
      redirect_uris: [...client.redirectUris],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(client.clientSecret !== undefined
        ? { client_secret: client.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
        : { token_endpoint_auth_method: 'none' }),
    })),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access', ...scopes],
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    pkce: { required: () => true },
    jwks: parts.signingKeys as Configuration['jwks'],
    cookies: {
      keys: [...options.cookieKeys],
      // Unlike ports, cookie names tell servers on one host apart (an upstream IdP on 127.0.0.1).
      names: { session: 'mcp_auth_session', interaction: 'mcp_auth_interaction', resume: 'mcp_auth_resume' },
      long: { signed: true, secure, sameSite: 'lax' },
      short: { signed: true, secure, sameSite: 'lax' },
    },
    routes: {
      authorization: AuthorizationServerPath.Authorize,
      token: AuthorizationServerPath.Token,
      registration: AuthorizationServerPath.Register,
      jwks: AuthorizationServerPath.Jwks,
      revocation: AuthorizationServerPath.Revoke,
      userinfo: AuthorizationServerPath.UserInfo,
      pushed_authorization_request: AuthorizationServerPath.PushedAuthorization,
      end_session: AuthorizationServerPath.EndSession,
    },
    interactions: { url: (_ctx, interaction) => `${AuthorizationServerPath.Interaction}/${interaction.uid}` },
    findAccount: (_ctx, sub) => parts.accounts.find(sub),
    ttl: {
      AccessToken: ttl.accessToken,
      AuthorizationCode: 60,
      RefreshToken: ttl.refreshToken,
      Interaction: ttl.signIn,
      Session: ttl.refreshToken,
      Grant: ttl.refreshToken,
      IdToken: ttl.accessToken,
    },
    // Every client that may use refresh tokens gets one, rotated at each use.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    fetchResponseBodyLimits: { 'client_id metadata document': cimd.maxBytes },
    fetch: clientMetadataFetch(cimd),
    // Errors on our own page (oidc-provider's default loads a web font from Google).
    renderError: (ctx: KoaContextWithOIDC, out: ErrorOut) => {
      ctx.type = 'html';
      ctx.body = renderMessagePage('Sign-in failed', errorMessage(out), options.consentStylesheet);
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.dynamicRegistration, initialAccessToken: false },
      revocation: { enabled: true },
      // The draft oidc-provider implements, acknowledged so that it says when it moves on.
      clientIdMetadataDocument: { enabled: cimd.enabled, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resources[0]!,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) => {
          if (!resources.includes(resource))
            throw parts.invalidTarget(`No MCP server of this application is ${resource}`);
          return {
            audience: resource,
            scope: scopes.join(' '),
            accessTokenTTL: ttl.accessToken,
            accessTokenFormat: 'jwt' as const,
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  } as Configuration;
}

/** What an error page says: oidc-provider's description, and its error code (for the host's developers). */
function errorMessage(out: ErrorOut): string {
  const { error, error_description: description } = out;
  return description ? `${description} (${error}).` : `The request was refused (${error}).`;
}

/** The oidc-provider adapter of one model over the store. */
function storeAdapter(store: McpAuthorizationStore, model: string): Adapter {
  const payload = (record: Record<string, unknown> | undefined) => record as AdapterPayload | undefined;
  return {
    upsert: (id, record, expiresIn) => store.upsert(model, id, record as Record<string, unknown>, expiresIn),
    find: async (id) => payload(await store.find(model, id)),
    findByUid: async (uid) => payload(await store.findByUid(model, uid)),
    findByUserCode: async (code) => payload(await store.findByUserCode(model, code)),
    consume: (id) => store.consume(model, id),
    destroy: (id) => store.destroy(model, id),
    revokeByGrantId: (grantId) => store.revokeByGrantId(model, grantId),
  };
}

/**
 * An authorization request without `scope` (the conformance suite's, some hosts') asks for every
 * scope of the resource, as if it had listed them: oidc-provider would otherwise grant none.
 */
export function defaultScopes(provider: Provider, scopes: readonly string[]): void {
  provider.use(async (ctx, next) => {
    if (ctx.path === AuthorizationServerPath.Authorize && ctx.method === 'GET' && ctx.query['scope'] === undefined) {
      ctx.query = { ...ctx.query, scope: scopes.join(' ') };
    }
    await next();
  });
}
