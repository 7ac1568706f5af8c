import { randomBytes } from 'node:crypto';
import type { McpAuthorizationStore } from './mcp-authorization.store.js';

/**
 * The company's identity provider the users sign in with (Entra ID, Okta, Keycloak, Google…), to
 * which this authorization server is one pre-registered confidential OpenID Connect client.
 *
 * @publicApi
 */
export interface McpUpstreamIdentityProvider {
  /**
   * The provider's issuer, e.g. `https://login.microsoftonline.com/<tenant>/v2.0`; its discovery
   * document is read from `<issuer>/.well-known/openid-configuration`.
   */
  issuer: string;
  /** The client id this application was registered with at the provider. */
  clientId: string;
  /** The client secret of that registration (sent with HTTP Basic authentication). */
  clientSecret: string;
  /** Scopes asked of the provider. Default `['openid', 'profile', 'email']`. */
  scopes?: readonly string[];
}

/**
 * A client registered ahead of time (in the options, as at an identity provider), for a host that
 * neither publishes a Client ID Metadata Document nor registers itself.
 *
 * @publicApi
 */
export interface McpPreRegisteredClient {
  /** The client id the host is configured with. */
  clientId: string;
  /** Shown on the consent page. */
  clientName?: string;
  /** Where the host may be sent back to, exactly as it sends them. */
  redirectUris: readonly string[];
  /** A confidential client's secret (`client_secret_basic`); without one the client is public (PKCE only). */
  clientSecret?: string;
}

/**
 * Options of `McpAuthorizationServerModule.forRoot` / `forRootAsync`.
 *
 * @publicApi
 */
export interface McpAuthorizationServerOptions {
  /**
   * The issuer: the application's external origin, e.g. `https://mcp.example.com` (no path).
   * `https`, or `http` on a loopback host for development.
   */
  issuer: string;
  /**
   * The MCP server URL(s) tokens are issued for (RFC 8707 resource indicators), e.g.
   * `https://mcp.example.com/mcp/staff`. A token names one of them as its audience and works only
   * there; a client that names no resource gets the first.
   */
  resources: readonly string[];
  /** Where the users sign in. */
  upstream: McpUpstreamIdentityProvider;
  /**
   * Scopes a client may ask for, listed in the metadata (`scopes_supported`). A request without
   * `scope` is granted all of them. Default `['mcp:tools']`.
   */
  scopes?: readonly string[];
  /** Clients registered ahead of time. Default none. */
  clients?: readonly McpPreRegisteredClient[];
  /**
   * Dynamic Client Registration (RFC 7591) for public clients (`token_endpoint_auth_method:
   * 'none'`), as VS Code and Cursor use. Default true.
   */
  dynamicRegistration?: boolean;
  /** Client ID Metadata Documents: a `client_id` that is an HTTPS URL of the client's metadata. */
  clientMetadataDocuments?: {
    /** Default true. */
    enabled?: boolean;
    /**
     * Fetch documents from loopback and private addresses too. For development only: it lets a
     * client id point the server at its own network. Default false.
     */
    allowPrivateAddresses?: boolean;
    /** The largest document accepted, in bytes. Default 5120. */
    maxBytes?: number;
    /** How long a fetch may take, in ms. Default 2500. */
    timeoutMs?: number;
  };
  /** Lifetimes, in seconds. */
  ttl?: {
    /** Access tokens. Default 600 (10 minutes). */
    accessToken?: number;
    /** Refresh tokens (rotated at each use). Default 1209600 (14 days). */
    refreshToken?: number;
    /** A sign-in, from the host's request to the consent answer. Default 600. */
    signIn?: number;
  };
  /**
   * Keys signing the cookies of a sign-in, the first signing, every one verifying; at least 32
   * characters each and the same on every node. Default: a random key per process (a sign-in then
   * cannot move between nodes or survive a restart).
   */
  cookieKeys?: readonly string[];
  /**
   * The private JWKS signing the access tokens (`{ keys: [...] }`, EC P-256 or RSA), the same on
   * every node. Default: a key generated per process (tokens then die with it).
   */
  signingKeys?: { keys: readonly Record<string, unknown>[] };
  /** CSS added to the consent page (which has no external assets). */
  consentStylesheet?: string;
  /**
   * Behind a reverse proxy that terminates TLS: take the scheme and host of the endpoints from its
   * `X-Forwarded-Proto` and `X-Forwarded-Host` (only when every request comes through the proxy).
   * Default false.
   */
  trustProxy?: boolean;
  /** The largest number of records (sign-ins, codes, tokens, grants, clients) kept in memory. Default 10000. */
  maxStoredRecords?: number;
  /**
   * Where sign-ins, codes, tokens, grants and registered clients are kept. Default: this process's
   * memory ({@link InMemoryAuthorizationStore}, at most `maxStoredRecords`).
   */
  store?: McpAuthorizationStore;
}

/** The options after validation, with defaults (internal). */
export interface ResolvedMcpAuthorizationServerOptions {
  readonly issuer: string;
  readonly resources: readonly string[];
  readonly upstream: Required<McpUpstreamIdentityProvider>;
  readonly scopes: readonly string[];
  readonly clients: readonly McpPreRegisteredClient[];
  readonly dynamicRegistration: boolean;
  readonly clientMetadataDocuments: {
    readonly enabled: boolean;
    readonly allowPrivateAddresses: boolean;
    readonly maxBytes: number;
    readonly timeoutMs: number;
  };
  readonly ttl: { readonly accessToken: number; readonly refreshToken: number; readonly signIn: number };
  readonly cookieKeys: readonly string[];
  readonly signingKeys?: { keys: readonly Record<string, unknown>[] };
  readonly consentStylesheet: string;
  readonly trustProxy: boolean;
  readonly maxStoredRecords: number;
  readonly store?: McpAuthorizationStore;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Validates the options; throws one error listing every problem. */
export function resolveMcpAuthorizationServerOptions(
  o: McpAuthorizationServerOptions,
): ResolvedMcpAuthorizationServerOptions {
  const problems: string[] = [];
  const issuer = httpsUrl(o?.issuer, 'issuer', problems);
  if (issuer && (issuer.pathname !== '/' || issuer.search || issuer.hash)) {
    problems.push('issuer: the application origin only, without a path (e.g. https://mcp.example.com)');
  }
  const resources = Array.isArray(o?.resources) ? [...o.resources] : [];
  if (resources.length === 0) problems.push('resources: name at least one MCP server URL tokens are for');
  resources.forEach((resource, i) => httpsUrl(resource, `resources[${i}]`, problems));
  const upstream = o?.upstream;
  httpsUrl(upstream?.issuer, 'upstream.issuer', problems);
  for (const key of ['clientId', 'clientSecret'] as const) {
    if (typeof upstream?.[key] !== 'string' || upstream[key] === '') problems.push(`upstream.${key}: required`);
  }
  const scopes = o?.scopes ?? ['mcp:tools'];
  if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))) {
    problems.push('scopes: an array of scope tokens (no spaces or quotes)');
  }
  const clients = o?.clients ?? [];
  clients.forEach((client, i) => {
    if (typeof client?.clientId !== 'string' || client.clientId === '')
      problems.push(`clients[${i}].clientId: required`);
    if (!Array.isArray(client?.redirectUris) || client.redirectUris.length === 0) {
      problems.push(`clients[${i}].redirectUris: at least one`);
    }
  });
  const cimd = o?.clientMetadataDocuments ?? {};
  const maxBytes = cimd.maxBytes ?? 5120;
  const timeoutMs = cimd.timeoutMs ?? 2500;
  for (const [name, value] of [
    ['clientMetadataDocuments.maxBytes', maxBytes],
    ['clientMetadataDocuments.timeoutMs', timeoutMs],
    ['ttl.accessToken', o?.ttl?.accessToken ?? 600],
    ['ttl.refreshToken', o?.ttl?.refreshToken ?? 1_209_600],
    ['ttl.signIn', o?.ttl?.signIn ?? 600],
    ['maxStoredRecords', o?.maxStoredRecords ?? 10_000],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) problems.push(`${name}: a positive whole number`);
  }
  const cookieKeys = o?.cookieKeys ?? [randomBytes(32).toString('base64url')];
  if (
    !Array.isArray(cookieKeys) ||
    cookieKeys.length === 0 ||
    cookieKeys.some((k) => typeof k !== 'string' || k.length < 32)
  ) {
    problems.push('cookieKeys: at least one key of at least 32 characters');
  }
  if (o?.signingKeys !== undefined && (!Array.isArray(o.signingKeys.keys) || o.signingKeys.keys.length === 0)) {
    problems.push('signingKeys: a private JWKS, { keys: [...] } with at least one key');
  }
  if (problems.length > 0) {
    throw new Error(`Invalid McpAuthorizationServerModule options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return {
    issuer: issuer!.origin,
    resources,
    upstream: {
      issuer: upstream.issuer.replace(/\/+$/, ''),
      clientId: upstream.clientId,
      clientSecret: upstream.clientSecret,
      scopes: upstream.scopes ?? ['openid', 'profile', 'email'],
    },
    scopes,
    clients,
    dynamicRegistration: o.dynamicRegistration ?? true,
    clientMetadataDocuments: {
      enabled: cimd.enabled ?? true,
      allowPrivateAddresses: cimd.allowPrivateAddresses === true,
      maxBytes,
      timeoutMs,
    },
    ttl: {
      accessToken: o.ttl?.accessToken ?? 600,
      refreshToken: o.ttl?.refreshToken ?? 1_209_600,
      signIn: o.ttl?.signIn ?? 600,
    },
    cookieKeys,
    ...(o.signingKeys !== undefined && { signingKeys: o.signingKeys }),
    consentStylesheet: o.consentStylesheet ?? '',
    trustProxy: o.trustProxy === true,
    maxStoredRecords: o.maxStoredRecords ?? 10_000,
    ...(o.store !== undefined && { store: o.store }),
  };
}

function httpsUrl(value: unknown, name: string, problems: string[]): URL | undefined {
  let url: URL;
  try {
    if (typeof value !== 'string') throw new TypeError();
    url = new URL(value);
  } catch {
    problems.push(`${name}: ${JSON.stringify(value)} is not an absolute URL`);
    return undefined;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    problems.push(`${name}: use an https URL (http is accepted only on localhost, 127.0.0.1 or [::1])`);
    return undefined;
  }
  return url;
}
