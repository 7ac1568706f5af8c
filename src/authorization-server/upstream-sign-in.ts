import * as client from 'openid-client';
import type { McpAuthorizationStore } from './mcp-authorization.store.js';
import type { ResolvedMcpAuthorizationServerOptions } from './mcp-authorization-server.options.js';
import { AuthorizationServerPath } from './authorization-server-routes.js';
import type { UpstreamUser } from './upstream-accounts.js';

/** A sign-in sent upstream, kept until the user comes back (by its `state`). */
interface PendingSignIn {
  /** The interaction (ours) the sign-in belongs to. */
  readonly uid: string;
  readonly codeVerifier: string;
  readonly nonce: string;
}

const MODEL = 'UpstreamSignIn';

/**
 * The upstream side: this application as a confidential OpenID Connect client of the company's
 * IdP (openid-client), authorization code with PKCE. `start` sends the user there for one of our
 * interactions; `finish` takes them back at the fixed callback path and says who they are.
 */
export class UpstreamSignIn {
  private configuration: Promise<client.Configuration> | undefined;
  private readonly callbackUrl: string;

  constructor(
    private readonly options: ResolvedMcpAuthorizationServerOptions,
    private readonly store: McpAuthorizationStore,
  ) {
    this.callbackUrl = `${options.issuer}${AuthorizationServerPath.UpstreamCallback}`;
  }

  /** The upstream authorization URL for interaction `uid`. */
  async start(uid: string): Promise<string> {
    const config = await this.discover();
    const state = client.randomState();
    const pending: PendingSignIn = { uid, codeVerifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce() };
    await this.store.upsert(MODEL, state, { ...pending }, this.options.ttl.signIn);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.callbackUrl,
      scope: this.options.upstream.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce: pending.nonce,
    });
    return url.href;
  }

  /**
   * Exchanges the code the upstream sent back to `callbackUrl` (with its query) for the user's
   * ID token: the interaction it was for and who signed in. Throws when the state is unknown, used
   * or expired, or the upstream's answer does not check out.
   */
  async finish(currentUrl: URL): Promise<{ readonly uid: string; readonly user: UpstreamUser }> {
    const state = currentUrl.searchParams.get('state');
    const pending = state ? ((await this.store.find(MODEL, state)) as PendingSignIn | undefined) : undefined;
    if (!state || !pending) throw new Error('This sign-in is unknown or expired; start again from the application');
    // One use: a replayed callback finds nothing.
    await this.store.destroy(MODEL, state);
    const config = await this.discover();
    const callback = new URL(this.callbackUrl);
    callback.search = currentUrl.search;
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims?.sub) throw new Error('The identity provider did not say who signed in');
    return {
      uid: pending.uid,
      user: {
        sub: claims.sub,
        issuer: claims.iss,
        ...(typeof claims['name'] === 'string' && { name: claims['name'] }),
        ...(typeof claims['email'] === 'string' && { email: claims['email'] }),
      },
    };
  }

  /** The upstream's metadata, read once (a failed read is tried again next time). */
  private discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.options.upstream;
    this.configuration ??= client
      .discovery(new URL(issuer), clientId, undefined, client.ClientSecretBasic(clientSecret), {
        ...(issuer.startsWith('http:') && { execute: [client.allowInsecureRequests] }),
      })
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }
}
