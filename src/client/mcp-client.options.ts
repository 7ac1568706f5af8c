import type {
  AuthProvider,
  Client,
  ClientOptions,
  Implementation,
  OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { noResponseCache } from './no-response-cache.js';

/**
 * How this application authenticates to one server (Streamable HTTP only). Never the caller's own
 * token: each server gets a token meant for it.
 *
 * - `{ token }`: a static bearer token, or a function returning one (called before every request).
 * - `{ clientCredentials }`: the OAuth 2.0 client-credentials grant against a token endpoint; the
 *   token is cached until shortly before it expires, and fetched again after a 401.
 * - `{ tokenExchange }`: the caller's identity, by token exchange (RFC 8693): the caller's token is
 *   exchanged at the authorization server for one meant for this server (2026-07-28 connections).
 * - `{ provider }`: any `AuthProvider` or `OAuthClientProvider` of `@modelcontextprotocol/client`
 *   (its `ClientCredentialsProvider` with discovery, `PrivateKeyJwtProvider`, your own).
 *
 * @publicApi
 */
export type McpClientAuth =
  | { token: string | (() => string | Promise<string>) }
  | { clientCredentials: McpClientCredentials }
  | { tokenExchange: McpClientTokenExchange }
  | { provider: AuthProvider | OAuthClientProvider };

/**
 * The OAuth 2.0 client-credentials grant (RFC 6749 §4.4) for one server.
 *
 * @publicApi
 */
export interface McpClientCredentials {
  /** The authorization server's token endpoint. */
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for (default: none, the authorization server's default). */
  scope?: string;
  /**
   * The resource indicator (RFC 8707) the token is for. Default: the server's `url`, as MCP
   * requires, so the token's audience is that server and no other.
   */
  resource?: string;
  /** How the client authenticates to the token endpoint. Default `client_secret_basic`. */
  authMethod?: 'client_secret_basic' | 'client_secret_post';
}

/**
 * Token exchange (RFC 8693) for one server: each request carries a token the authorization server
 * issued for this server in exchange for the caller's token, never the caller's token itself.
 * Exchanged tokens are cached per caller until shortly before they expire. Needs a 2026-07-28
 * connection (`clientOptions.versionNegotiation.mode: { pin: '2026-07-28' }`): its requests stand
 * alone, whereas a 2025-era session belongs to one caller. The connection's response cache is off
 * (unless `clientOptions.responseCacheStore` is given), so no caller is served another's results.
 *
 * @publicApi
 */
export interface McpClientTokenExchange {
  /** The authorization server's token endpoint. */
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  /** How the client authenticates to the token endpoint. Default `client_secret_basic`. */
  authMethod?: 'client_secret_basic' | 'client_secret_post';
  /**
   * The caller's token for the request being sent (read it from your request context, e.g. an
   * `AsyncLocalStorage`); a request without one fails with `McpClientError` (`unauthorized`).
   */
  subjectToken: () => string | undefined | Promise<string | undefined>;
  /** Default `urn:ietf:params:oauth:token-type:access_token`. */
  subjectTokenType?: string;
  /** The resource indicator of the token asked for. Default: the server's `url`. */
  resource?: string;
  /** An `audience` parameter, for authorization servers that want one. */
  audience?: string;
  /** Space-separated scopes to ask for. */
  scope?: string;
}

/**
 * A server started as a child process, spoken to over stdio.
 *
 * @publicApi
 */
export interface McpClientStdio {
  command: string;
  args?: string[];
  /** The child's environment (default: the official client's safe subset of this process's). */
  env?: Record<string, string>;
  cwd?: string;
  /** The child's stderr: into this process's stderr (`inherit`, the default) or discarded (`ignore`). */
  stderr?: 'inherit' | 'ignore';
}

/**
 * One MCP server this application calls: exactly one of `url` and `stdio`.
 *
 * @publicApi
 */
export interface McpClientServerOptions {
  /** The server's Streamable HTTP endpoint, e.g. `https://weather.example.com/mcp`. */
  url?: string;
  /** Or a local server started as a child process. */
  stdio?: McpClientStdio;
  /** Credentials for `url` (see {@link McpClientAuth}). */
  auth?: McpClientAuth;
  /** Extra HTTP headers sent with every request to `url`. */
  headers?: Record<string, string>;
  /**
   * How long connecting, and each request that does not pass its own `timeout`, may wait for the
   * server before failing with `McpClientError` (`timeout`). Default 30000 ms.
   */
  timeoutMs?: number;
  /**
   * How many times a request answered with HTTP 503 (the transient error -32051) is sent again,
   * after the server's `Retry-After`, before it fails with `McpClientError` (`unavailable`).
   * Default 2; 0 turns retries off.
   */
  retries?: number;
  /**
   * The longest `Retry-After` the client waits for; a server asking for longer fails at once with
   * `McpClientError` (`unavailable`, its `retryAfterMs`). Default 5000 ms.
   */
  maxRetryDelayMs?: number;
  /**
   * The largest message read from the server, in bytes: a JSON response body, or one event of an
   * SSE stream (each event counted on its own, so a long stream of small notifications is never
   * cut). Counted while the answer arrives: once it passes the bound the rest is not read (the
   * connection is closed) and the request fails with `McpClientError` (`too-large`). For `stdio`,
   * the longest line read from the child: a longer one stops the child, and its calls fail with
   * `unreachable`. Default 16777216 (16 MiB).
   */
  maxResponseBytes?: number;
  /** The name and version the client gives the server. Default `{ name: 'mocapi-client', version: '1.0.0' }`. */
  clientInfo?: Implementation;
  /**
   * Options of the official `Client`, e.g. `versionNegotiation: { mode: { pin: '2026-07-28' } }`
   * for the 2026-07-28 era (the default is the client's own: the 2025 era, `initialize`),
   * `capabilities`, `listChanged` or `inputRequired`.
   */
  clientOptions?: ClientOptions;
  /**
   * Called with every new `Client` of this server before it connects (the first connection and
   * each reconnection), to register request or notification handlers that must survive
   * reconnections.
   */
  configureClient?: (client: Client) => void;
}

/**
 * Options of `McpClientModule.forRoot` / `forRootAsync`: the servers by name, the name
 * `@InjectMcpClient(name)` and `McpClientRegistry.get(name)` take.
 *
 * @publicApi
 */
export interface McpClientOptions {
  /** The MCP servers this application calls, by name (see `McpClientServerOptions`). */
  servers: Record<string, McpClientServerOptions>;
}

/** One server's options after defaults and checks. */
export interface ResolvedMcpClientServer {
  readonly name: string;
  readonly url?: URL;
  readonly stdio?: McpClientStdio;
  readonly auth?: McpClientAuth;
  readonly headers: Record<string, string>;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxRetryDelayMs: number;
  readonly maxResponseBytes: number;
  readonly clientInfo: Implementation;
  readonly clientOptions: ClientOptions;
  readonly configureClient?: (client: Client) => void;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Above the largest answer a gateway passes on by default (`maxResultChars` 1 000 000, even as `\uXXXX` escapes). */
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Thrown at startup when the options are wrong. */
export function resolveMcpClientOptions(options: McpClientOptions): ResolvedMcpClientServer[] {
  if (
    options === null ||
    typeof options !== 'object' ||
    options.servers === null ||
    typeof options.servers !== 'object'
  ) {
    throw new Error('McpClientModule needs `servers`: an object of server options by name');
  }
  return Object.entries(options.servers).map(([name, server]) => resolveServer(name, server));
}

function resolveServer(name: string, server: McpClientServerOptions): ResolvedMcpClientServer {
  const fail = (message: string): never => {
    throw new Error(`McpClientModule: server "${name}": ${message}`);
  };
  if (!NAME.test(name)) fail('a server name is letters, digits, `_`, `.` and `-`');
  if ((server.url === undefined) === (server.stdio === undefined)) fail('needs exactly one of `url` and `stdio`');
  let url: URL | undefined;
  if (server.url !== undefined) {
    try {
      url = new URL(server.url);
    } catch {
      fail(`\`url\` is not a URL: ${server.url}`);
    }
    if (url!.protocol !== 'http:' && url!.protocol !== 'https:') fail('`url` must be http: or https:');
  }
  if (server.stdio !== undefined && (typeof server.stdio.command !== 'string' || server.stdio.command === '')) {
    fail('`stdio.command` is required');
  }
  if (server.stdio !== undefined && (server.auth !== undefined || server.headers !== undefined)) {
    fail('`auth` and `headers` apply to `url` only');
  }
  if (server.auth !== undefined) checkAuth(server.auth, fail);
  const mode = server.clientOptions?.versionNegotiation?.mode;
  if (server.auth !== undefined && 'tokenExchange' in server.auth && (typeof mode !== 'object' || mode === null)) {
    fail(
      '`auth.tokenExchange` needs a 2026-07-28 connection, `clientOptions: { versionNegotiation: { mode: { pin: ' +
        "'2026-07-28' } } }`: a 2025-era session belongs to one caller",
    );
  }
  const resolved = {
    timeoutMs: server.timeoutMs ?? 30_000,
    retries: server.retries ?? 2,
    maxRetryDelayMs: server.maxRetryDelayMs ?? 5000,
    maxResponseBytes: server.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
  if (!Number.isInteger(resolved.timeoutMs) || resolved.timeoutMs < 1)
    fail('`timeoutMs` must be a positive integer (ms)');
  if (!Number.isInteger(resolved.retries) || resolved.retries < 0 || resolved.retries > 10) {
    fail('`retries` must be an integer from 0 to 10');
  }
  if (!Number.isInteger(resolved.maxRetryDelayMs) || resolved.maxRetryDelayMs < 0) {
    fail('`maxRetryDelayMs` must be a non-negative integer (ms)');
  }
  if (!Number.isInteger(resolved.maxResponseBytes) || resolved.maxResponseBytes < 1) {
    fail('`maxResponseBytes` must be a positive integer (bytes)');
  }
  return {
    name,
    url,
    stdio: server.stdio,
    auth: server.auth,
    headers: { ...server.headers },
    ...resolved,
    clientInfo: server.clientInfo ?? { name: 'mocapi-client', version: '1.0.0' },
    clientOptions:
      server.auth !== undefined && 'tokenExchange' in server.auth
        ? { responseCacheStore: noResponseCache, ...server.clientOptions }
        : (server.clientOptions ?? {}),
    configureClient: server.configureClient,
  };
}

function checkAuth(auth: McpClientAuth, fail: (message: string) => never): void {
  const kinds = ['token', 'clientCredentials', 'tokenExchange', 'provider'].filter((key) => key in auth);
  if (kinds.length !== 1) {
    fail('`auth` needs exactly one of `token`, `clientCredentials`, `tokenExchange` and `provider`');
  }
  if ('tokenExchange' in auth) {
    if (typeof auth.tokenExchange?.subjectToken !== 'function')
      fail('`auth.tokenExchange.subjectToken` must be a function');
  }
  if ('clientCredentials' in auth || 'tokenExchange' in auth) {
    const credentials = 'clientCredentials' in auth ? auth.clientCredentials : auth.tokenExchange;
    const kind = 'clientCredentials' in auth ? 'clientCredentials' : 'tokenExchange';
    for (const key of ['tokenEndpoint', 'clientId', 'clientSecret'] as const) {
      if (typeof credentials?.[key] !== 'string' || credentials[key] === '')
        fail(`\`auth.clientCredentials.${key}\` is required`);
    }
    try {
      new URL(credentials.tokenEndpoint);
    } catch {
      fail(`\`auth.${kind}.tokenEndpoint\` is not a URL: ${credentials.tokenEndpoint}`);
    }
  }
}
