import { PROTECTED_RESOURCE_WELL_KNOWN } from './mcp-oauth2.constants.js';

/**
 * Options of `McpOAuth2Module.forRoot` / `forRootAsync`: how the MCP server, acting as an OAuth 2.1
 * resource server, validates bearer tokens and describes itself (RFC 9728).
 *
 * @publicApi
 */
export interface McpOAuth2Options {
  /**
   * The canonical URI of this MCP server, e.g. `https://mcp.example.com/mcp` (RFC 8707). Tokens
   * must carry it in `aud`; it is the `resource` of the protected resource metadata, and its path
   * decides the path-inserted well-known location. `https`, or `http` on a loopback host only.
   */
  audience: string;
  /**
   * The issuer of the access tokens. Tokens must carry it in `iss`; unless `jwksUri` is set, the
   * signing keys are found through `<issuer>/.well-known/openid-configuration` (or RFC 8414
   * metadata). It is also the default authorization server in the metadata.
   */
  issuer?: string;
  /**
   * The JWKS of the issuer, when discovery is not wanted or not available. Without `issuer` as
   * well, `iss` is not checked: any token signed by these keys is accepted.
   */
  jwksUri?: string;
  /** Scopes every request needs, checked after the token (403 `insufficient_scope` otherwise). */
  requiredScopes?: readonly string[];
  /** `authorization_servers` of the metadata; defaults to `[issuer]`. At least one is required. */
  authorizationServers?: readonly string[];
  /**
   * `scopes_supported` of the metadata. Defaults to the required scopes plus every scope named by
   * an `@McpScopes` decorator found at startup. `offline_access` is never listed.
   */
  scopesSupported?: readonly string[];
  /** `resource_documentation` of the metadata: a human-readable page about this server. */
  resourceDocumentation?: string;
  /** `resource_name` of the metadata. */
  resourceName?: string;
  /** Leeway for `exp`, `nbf` and `iat`, in seconds. Default 30, at most 300. */
  clockToleranceSeconds?: number;
  /** Accepted JWS algorithms; asymmetric only. Defaults to every asymmetric algorithm. */
  algorithms?: readonly string[];
  /** Caching of the remote key set. */
  jwks?: {
    /** How long fetched keys are trusted before a refetch, in ms. Default 10 minutes. */
    readonly cacheMaxAgeMs?: number;
    /** Minimum time between two refetches (an unknown `kid` triggers one), in ms. Default 30 s. */
    readonly cooldownMs?: number;
    /** Timeout of one key-set or discovery request, in ms. Default 5 s. */
    readonly timeoutMs?: number;
  };
}

/** The options after validation, with defaults applied (internal). */
export interface McpOAuth2Config {
  readonly audience: string;
  readonly issuer?: string;
  readonly jwksUri?: string;
  readonly requiredScopes: readonly string[];
  readonly authorizationServers: readonly string[];
  /** Undefined: derive from the required scopes and the `@McpScopes` found at startup. */
  readonly scopesSupported?: readonly string[];
  readonly resourceDocumentation?: string;
  readonly resourceName?: string;
  readonly clockToleranceSeconds: number;
  readonly algorithms: readonly string[];
  readonly jwks: { readonly cacheMaxAgeMs: number; readonly cooldownMs: number; readonly timeoutMs: number };
  /** The absolute URL announced in `resource_metadata` of every challenge. */
  readonly resourceMetadataUrl: string;
  /** The paths the metadata is served at: path-inserted first, then the root. */
  readonly resourceMetadataPaths: readonly string[];
}

/** JWS algorithms with a public verification key. HMAC is refused: the issuer's secret is not ours. */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;
const MAX_CLOCK_TOLERANCE_SECONDS = 300;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` and `\`, so it is safe in a quoted header value. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * Validates a scope name for use in tokens, metadata and challenges; returns a problem or null.
 * `offline_access` is refused because MCP servers should not advertise it (it is a client concern).
 */
export function scopeProblem(scope: unknown): string | null {
  if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope)) {
    return `${JSON.stringify(scope)} is not a valid scope (printable ASCII, no spaces, quotes or backslashes)`;
  }
  if (scope === 'offline_access') {
    return '"offline_access" must not be required or advertised by an MCP server';
  }
  return null;
}

/**
 * Checks the options and applies defaults. Throws one error listing every problem, each saying
 * what to set, so a misconfigured server fails at startup rather than on the first request.
 */
export function resolveMcpOAuth2Options(options: McpOAuth2Options | undefined): McpOAuth2Config {
  const problems: string[] = [];
  const o: Partial<McpOAuth2Options> = options ?? {};

  const audience = checkUrl(o.audience, 'audience', problems, {
    required: 'set it to the canonical URI of the MCP endpoint, e.g. "https://mcp.example.com/mcp"',
    bare: true,
  });
  const issuer = checkUrl(o.issuer, 'issuer', problems, {});
  const jwksUri = checkUrl(o.jwksUri, 'jwksUri', problems, {});
  if (o.issuer === undefined && o.jwksUri === undefined) {
    problems.push('issuer: set the token issuer (its keys are discovered), or set jwksUri');
  }

  const requiredScopes = checkScopes(o.requiredScopes, 'requiredScopes', problems);
  const scopesSupported =
    o.scopesSupported === undefined ? undefined : checkScopes(o.scopesSupported, 'scopesSupported', problems);

  let authorizationServers: string[] = [];
  if (o.authorizationServers === undefined) {
    if (o.issuer !== undefined) authorizationServers = [o.issuer];
    else
      problems.push(
        'authorizationServers: set at least one authorization server URL (RFC 9728 requires one), or set issuer',
      );
  } else if (!Array.isArray(o.authorizationServers) || o.authorizationServers.length === 0) {
    problems.push('authorizationServers: set a non-empty array of authorization server URLs');
  } else {
    o.authorizationServers.forEach((server, i) => checkUrl(server, `authorizationServers[${i}]`, problems, {}));
    authorizationServers = [...o.authorizationServers];
  }

  if (o.resourceDocumentation !== undefined) {
    checkUrl(o.resourceDocumentation, 'resourceDocumentation', problems, { anyScheme: true });
  }
  if (o.resourceName !== undefined && (typeof o.resourceName !== 'string' || o.resourceName.trim() === '')) {
    problems.push('resourceName: set a non-empty string or leave it out');
  }

  const clockToleranceSeconds = o.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!isIn(clockToleranceSeconds, 0, MAX_CLOCK_TOLERANCE_SECONDS)) {
    problems.push(`clockToleranceSeconds: set a number of seconds between 0 and ${MAX_CLOCK_TOLERANCE_SECONDS}`);
  }

  const algorithms = o.algorithms === undefined ? ASYMMETRIC_ALGORITHMS : [...o.algorithms];
  if (algorithms.length === 0 || algorithms.some((alg) => !ASYMMETRIC_ALGORITHMS.includes(alg))) {
    problems.push(
      `algorithms: choose one or more of ${ASYMMETRIC_ALGORITHMS.join(', ')} (symmetric and "none" are refused)`,
    );
  }

  const jwks = {
    cacheMaxAgeMs: o.jwks?.cacheMaxAgeMs ?? 10 * 60_000,
    cooldownMs: o.jwks?.cooldownMs ?? 30_000,
    timeoutMs: o.jwks?.timeoutMs ?? 5_000,
  };
  for (const [key, value] of Object.entries(jwks)) {
    if (!isIn(value, 0, 24 * 3600_000)) problems.push(`jwks.${key}: set a number of milliseconds (0 to 24 h)`);
  }

  if (problems.length > 0 || audience === undefined) {
    throw new Error(`Invalid McpOAuth2Module options:\n  - ${problems.join('\n  - ')}`);
  }

  const { resourceMetadataUrl, resourceMetadataPaths } = metadataLocations(audience);
  return {
    audience: o.audience as string,
    issuer: issuer === undefined ? undefined : o.issuer,
    jwksUri: jwksUri?.href,
    requiredScopes,
    authorizationServers,
    scopesSupported,
    resourceDocumentation: o.resourceDocumentation,
    resourceName: o.resourceName,
    clockToleranceSeconds,
    algorithms,
    jwks,
    resourceMetadataUrl,
    resourceMetadataPaths,
  };
}

/**
 * RFC 9728 §3.1: the metadata of `https://host/path` lives at
 * `https://host/.well-known/oauth-protected-resource/path`; the root location is served as well,
 * for clients that try it as the fallback.
 */
function metadataLocations(resource: URL): { resourceMetadataUrl: string; resourceMetadataPaths: string[] } {
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const inserted = `${PROTECTED_RESOURCE_WELL_KNOWN}${path}`;
  const paths = path === '' ? [PROTECTED_RESOURCE_WELL_KNOWN] : [inserted, PROTECTED_RESOURCE_WELL_KNOWN];
  return { resourceMetadataUrl: `${resource.origin}${inserted}`, resourceMetadataPaths: paths };
}

function checkUrl(
  value: unknown,
  name: string,
  problems: string[],
  rules: { required?: string; bare?: boolean; anyScheme?: boolean },
): URL | undefined {
  if (value === undefined) {
    if (rules.required) problems.push(`${name}: ${rules.required}`);
    return undefined;
  }
  let url: URL;
  try {
    if (typeof value !== 'string') throw new TypeError();
    url = new URL(value);
  } catch {
    problems.push(`${name}: ${JSON.stringify(value)} is not an absolute URL`);
    return undefined;
  }
  if (rules.anyScheme) return url;
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    problems.push(`${name}: use an https URL (http is accepted only on localhost, 127.0.0.1 or [::1])`);
    return undefined;
  }
  if (rules.bare && (value.includes('#') || value.includes('?'))) {
    problems.push(`${name}: remove the query and fragment; a resource identifier has neither (RFC 8707)`);
    return undefined;
  }
  return url;
}

function checkScopes(value: unknown, name: string, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`${name}: set an array of scope strings`);
    return [];
  }
  for (const scope of value) {
    const problem = scopeProblem(scope);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  return [...new Set(value as string[])];
}

function isIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}
