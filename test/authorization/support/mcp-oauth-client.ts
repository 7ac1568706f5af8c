import { randomBytes } from 'node:crypto';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { ConsentDecision, SignInResult, TestBrowser, BrowserSession } from './browser.js';
import type { ClientMetadataServer } from './client-metadata-server.js';
import type { LoopbackRedirectReceiver } from './loopback-redirect.js';

export interface TestOAuthClientOptions {
  /** The loopback receiver's redirect URI. */
  readonly redirectUrl: string;
  /** Default `mocapi e2e host`. */
  readonly clientName?: string;
  /** CIMD mode: the HTTPS URL of this client's metadata document (used as its `client_id`). */
  readonly clientMetadataUrl?: string;
  /** A `scope` for the registration metadata (the SDK otherwise takes the server's). */
  readonly scope?: string;
  /** Sends the user agent to the authorization URL (e.g. the browser helper's `signIn`). */
  readonly signIn: (authorizationUrl: URL) => Promise<SignInResult | void>;
}

/**
 * An MCP host's OAuth client state for the official client, in memory: client information
 * (registered by DCR, or the CIMD URL), tokens, PKCE verifier, discovery state. Its
 * `redirectToAuthorization` hands the URL to `signIn` and waits for it, so when the SDK throws
 * `UnauthorizedError` the browser has already reached the redirect URI.
 */
export class TestOAuthClientProvider implements OAuthClientProvider {
  /** Every authorization URL the SDK sent the user to, in order. */
  readonly authorizationUrls: URL[] = [];
  /** Every `state` this client generated, in order (the SDK does not check it; `connectWithSignIn` does). */
  readonly states: string[] = [];
  /** What `signIn` returned for each authorization URL. */
  readonly signIns: (SignInResult | void)[] = [];
  readonly clientMetadataUrl?: string;
  private information?: StoredOAuthClientInformation;
  private stored?: StoredOAuthTokens;
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;

  constructor(private readonly options: TestOAuthClientOptions) {
    this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'mocapi e2e host',
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  state(): string {
    const state = randomBytes(16).toString('base64url');
    this.states.push(state);
    return state;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.information;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.information = information;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl);
    this.signIns.push(await this.options.signIn(authorizationUrl));
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('TestOAuthClientProvider: no code verifier saved');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

export type ClientEra = 'modern' | 'legacy';

export interface ConnectWithSignInOptions {
  /** `dcr`: Dynamic Client Registration; `cimd`: a Client ID Metadata Document URL as client_id. */
  readonly mode: 'dcr' | 'cimd';
  /** Runs the browser steps: a `TestBrowser` (fresh context per sign-in) or a `BrowserSession`. */
  readonly browser: TestBrowser | BrowserSession;
  readonly receiver: LoopbackRedirectReceiver;
  /** The upstream login name. Default `ada`. */
  readonly login?: string;
  /** Default `allow`. */
  readonly decision?: ConsentDecision;
  /** `modern` pins 2026-07-28 (as test/support/official-client.ts); `legacy` is the default 2025 era. Default `modern`. */
  readonly era?: ClientEra;
  readonly clientName?: string;
  /** CIMD: the document's URL; or give `metadataServer` and one is served for this client. */
  readonly clientMetadataUrl?: string;
  readonly metadataServer?: ClientMetadataServer;
  /** The upstream's issuer, to tell its pages from ours (see `SignInOptions.upstreamIssuer`). */
  readonly upstreamIssuer?: string;
  /** Re-use a provider (its client registration and tokens) from an earlier connection. */
  readonly provider?: TestOAuthClientProvider;
  /** The transports' fetch (the MCP server and authorization server requests). */
  readonly fetch?: typeof fetch;
}

export interface SignedInClient {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly provider: TestOAuthClientProvider;
  /** The callback query the authorization ended with (undefined when no sign-in was needed). */
  readonly callback?: URLSearchParams;
  /** The browser's view of the sign-in (consent page text, pages visited). */
  readonly signIn?: SignInResult;
}

/** The authorization ended at the redirect URI without a code (`error=access_denied`, say). */
export class AuthorizationFailedError extends Error {
  constructor(readonly callback: URLSearchParams) {
    super(`authorization failed: ${callback.toString()}`);
    this.name = 'AuthorizationFailedError';
  }
}

/**
 * The official client's documented interactive flow: connect with an `authProvider`; on
 * `UnauthorizedError` the provider has sent the browser through sign-in and consent to the
 * loopback receiver; check `state`, `transport.finishAuth(callback query)` (code and `iss`,
 * RFC 9207), then connect again with a new client and transport. Resolves to the connected
 * client; rejects with `AuthorizationFailedError` when the callback carries no code.
 *
 * ```ts
 * const { client } = await connectWithSignIn(`${app.origin}/mcp`, { mode: 'cimd', browser, receiver, metadataServer });
 * await client.listTools();
 * ```
 */
export async function connectWithSignIn(mcpUrl: string, options: ConnectWithSignInOptions): Promise<SignedInClient> {
  const era = options.era ?? 'modern';
  let clientMetadataUrl = options.clientMetadataUrl;
  if (options.mode === 'cimd' && !clientMetadataUrl && !options.provider) {
    if (!options.metadataServer)
      throw new Error('connectWithSignIn: CIMD mode needs clientMetadataUrl or metadataServer');
    clientMetadataUrl = options.metadataServer.serve(`/clients/${randomBytes(6).toString('hex')}.json`, {
      client_name: options.clientName ?? 'mocapi e2e host',
      client_uri: options.metadataServer.origin,
      redirect_uris: [options.receiver.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  }
  const provider =
    options.provider ??
    new TestOAuthClientProvider({
      redirectUrl: options.receiver.redirectUri,
      clientName: options.clientName,
      clientMetadataUrl: options.mode === 'cimd' ? clientMetadataUrl : undefined,
      signIn: (url) =>
        options.browser.signIn(url, {
          login: options.login ?? 'ada',
          decision: options.decision ?? 'allow',
          redirectUri: options.receiver.redirectUri,
          upstreamIssuer: options.upstreamIssuer,
        }),
    });

  let lastTransport: StreamableHTTPClientTransport | undefined;
  const attempt = async (): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
    const client = new Client(
      { name: 'mocapi-e2e-oauth', version: '1.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
      authProvider: provider,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    lastTransport = transport;
    await client.connect(transport);
    return { client, transport };
  };

  const signInsBefore = provider.signIns.length;
  try {
    return { ...(await attempt()), provider };
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || provider.signIns.length === signInsBefore) throw error;
  }

  const callback = await options.receiver.next();
  const expectedState = provider.states.at(-1);
  if (callback.get('state') !== expectedState)
    throw new Error(`connectWithSignIn: state mismatch (sent ${expectedState}, got ${callback.get('state')})`);
  if (!callback.get('code')) throw new AuthorizationFailedError(callback);
  // As the SDK's examples do: the transport that saw the 401 redeems the code, a new one connects.
  const exchanging = lastTransport!;
  await exchanging.finishAuth(callback);
  await exchanging.close().catch(() => undefined);
  if (options.mode === 'cimd' && provider.clientInformation()?.client_id !== provider.clientMetadataUrl)
    throw new Error(
      `connectWithSignIn: CIMD mode, but the client registered as ${provider.clientInformation()?.client_id} ` +
        '(the authorization server does not advertise client_id_metadata_document_supported?)',
    );
  const connected = await attempt();
  return { ...connected, provider, callback, signIn: provider.signIns.at(-1) ?? undefined };
}
