import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { SignInStoppedError, TestBrowser, type BrowserSession } from './support/browser.js';
import { ClientMetadataServer, type ClientMetadataDocument } from './support/client-metadata-server.js';
import { LoopbackRedirectReceiver } from './support/loopback-redirect.js';
import { connectWithSignIn, type ClientEra } from './support/mcp-oauth-client.js';
import { killSamples, startSample, type SampleProcess } from './support/sample-process.js';
import { createTestCa, type TestCa } from './support/test-ca.js';
import { UpstreamIdp } from './support/upstream-idp.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { mcp, parseBearerChallenge } from '../oauth2/support/oauth2-http.js';

type Adapter = 'express' | 'fastify';
const ADAPTERS: readonly Adapter[] = ['express', 'fastify'];

/** A PKCE pair (S256). */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An HTTP answer read without following its redirect. */
interface Answer {
  readonly status: number;
  readonly location: URL | undefined;
  readonly text: string;
}

async function getNoFollow(url: string | URL): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  return {
    status: response.status,
    location: location === null ? undefined : new URL(location, url),
    text: await response.text(),
  };
}

describe('McpAuthorizationServerModule in the sample: sign-in at an Entra-like upstream, consent, tokens for /mcp/staff', () => {
  let ca: TestCa;
  /** The MCP host's loopback redirect URI (every client registers it). */
  let receiver: LoopbackRedirectReceiver;
  /** Somewhere else on the loopback host: a redirect URI no client registered. */
  let elsewhere: LoopbackRedirectReceiver;
  let idp: UpstreamIdp;
  let metadata: ClientMetadataServer;
  let browser: TestBrowser;
  const apps = {} as Record<Adapter, SampleProcess>;
  /** A sample without MCP_AUTH_ALLOW_PRIVATE_CLIENT_METADATA: CIMD documents on 127.0.0.1 are refused. */
  let strict: SampleProcess;

  beforeAll(async () => {
    ca = createTestCa();
    [receiver, elsewhere] = await Promise.all([
      LoopbackRedirectReceiver.start(),
      LoopbackRedirectReceiver.start('/stolen'),
    ]);
    [idp, metadata, browser] = await Promise.all([
      UpstreamIdp.start({ redirectUris: [receiver.redirectUri], tls: ca }),
      ClientMetadataServer.start({ tls: ca }),
      TestBrowser.launch(),
    ]);
    const upstream = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret };
    [apps.express, apps.fastify, strict] = await Promise.all([
      startSample({ adapter: 'express', upstream, caPath: ca.caPath }),
      startSample({ adapter: 'fastify', upstream, caPath: ca.caPath }),
      startSample({ adapter: 'fastify', upstream, caPath: ca.caPath, allowPrivateClientMetadata: false }),
    ]);
    for (const app of [apps.express, apps.fastify, strict]) idp.allowRedirectUri(`${app.origin}/oauth/callback`);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([apps.express?.stop(), apps.fastify?.stop(), strict?.stop()]);
    killSamples();
    await browser?.close();
    await Promise.all([idp?.stop(), metadata?.stop(), receiver?.stop(), elsewhere?.stop()]);
    ca?.cleanup();
  });

  afterEach(() => {
    receiver.clear();
    expect(elsewhere.received).toEqual([]);
    expect(idp.errors).toEqual([]);
  });

  describe.each(ADAPTERS)('on %s', (adapter) => {
    let app: SampleProcess;
    beforeAll(() => {
      app = apps[adapter];
    });

    /** Registers a public client by DCR (RFC 7591) with the receiver's redirect URI; its client_id. */
    async function register(clientName: string): Promise<string> {
      const response = await fetch(`${app.origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: clientName,
          redirect_uris: [receiver.redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      });
      const body = (await response.json()) as { client_id?: string };
      if (response.status !== 201 || !body.client_id)
        throw new Error(`registration: HTTP ${response.status} ${JSON.stringify(body)}`);
      return body.client_id;
    }

    /** A CIMD client: a document on the metadata server (with `knobs`), whose URL is the client_id. */
    function cimdClient(name: string, document: Partial<ClientMetadataDocument> = {}): string {
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      return metadata.serve(`/clients/${slug}-${adapter}-${randomBytes(4).toString('hex')}.json`, {
        client_name: name,
        redirect_uris: [receiver.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...document,
      });
    }

    /** An authorization request URL; `params` override (undefined removes). */
    function authorizeUrl(
      clientId: string,
      params: Record<string, string | undefined> = {},
      on: SampleProcess = app,
    ): URL {
      const url = new URL(`${on.origin}/oauth/authorize`);
      const all: Record<string, string | undefined> = {
        client_id: clientId,
        response_type: 'code',
        redirect_uri: receiver.redirectUri,
        scope: 'mcp:tools',
        resource: on.staffUrl,
        state: randomBytes(8).toString('base64url'),
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        ...params,
      };
      for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
      return url;
    }

    async function token(form: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
      const response = await fetch(`${app.origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    }

    /**
     * A DCR client signed in through Chromium (upstream login as `login`, consent allowed): the code
     * the receiver got, with what redeems it.
     */
    async function signInForCode(
      login: string,
      options: { scope?: string; session?: BrowserSession } = {},
    ): Promise<{ clientId: string; code: string; verifier: string; query: URLSearchParams }> {
      const clientId = await register(`code for ${login}`);
      const { verifier, challenge } = pkce();
      const url = authorizeUrl(clientId, { code_challenge: challenge, scope: options.scope ?? 'mcp:tools' });
      await (options.session ?? browser).signIn(url, { login, upstreamIssuer: idp.issuer });
      const query = await receiver.next();
      expect(query.get('state')).toBe(url.searchParams.get('state'));
      const code = query.get('code');
      if (!code) throw new Error(`no code: ${query.toString()}`);
      return { clientId, code, verifier, query };
    }

    function redeem(grant: { clientId: string; code: string; verifier: string }) {
      return token({
        grant_type: 'authorization_code',
        client_id: grant.clientId,
        code: grant.code,
        code_verifier: grant.verifier,
        redirect_uri: receiver.redirectUri,
      });
    }

    /** Ada's (or another's) access token for /mcp/staff, through the browser. */
    async function accessToken(login: string): Promise<string> {
      const redeemed = await redeem(await signInForCode(login));
      expect(redeemed.status).toBe(200);
      return redeemed.body['access_token']!;
    }

    describe('sign-in with the official client (OAuthClientProvider), upstream login in Chromium, our consent page', () => {
      it.each([
        ['dcr', 'modern'],
        ['cimd', 'modern'],
        ['dcr', 'legacy'],
        ['cimd', 'legacy'],
      ] as const)('%s, %s era: whoami names the upstream user', async (mode, era: ClientEra) => {
        const clientName = `Host ${mode} ${era} ${adapter}`;
        const fetchesBefore = metadata.fetches.length;
        const { client, provider, callback, signIn } = await connectWithSignIn(app.staffUrl, {
          mode,
          era,
          login: 'ada',
          clientName,
          browser,
          receiver,
          metadataServer: metadata,
          upstreamIssuer: idp.issuer,
        });
        try {
          // The user signed in upstream, then allowed this client on our page, which names it and
          // the host it is sent back to.
          expect(signIn).toMatchObject({ upstreamLogin: true });
          expect(signIn?.consent?.url).toMatch(new RegExp(`^${app.origin}/oauth/interaction/`));
          expect(signIn?.consent?.text).toContain(`Allow ${clientName} to use the MCP server as you?`);
          expect(signIn?.consent?.text).toContain(`sent back to ${new URL(receiver.redirectUri).host}`);
          expect(signIn?.consent?.text).toContain('Signed in as Ada Lovelace');
          expect(signIn?.consent?.text).toContain(app.staffUrl);
          // RFC 9207: the response names its issuer.
          expect(callback?.get('iss')).toBe(app.origin);
          const clientId = provider.clientInformation()?.client_id;
          if (mode === 'cimd') {
            expect(clientId).toBe(provider.clientMetadataUrl);
            expect(metadata.fetches.length).toBeGreaterThan(fetchesBefore);
          } else {
            expect(clientId).not.toMatch(/^https:/);
          }
          expect(decodeJwt(provider.tokens()!.access_token)).toMatchObject({
            iss: app.origin,
            aud: app.staffUrl,
            sub: 'ada',
            client_id: clientId,
            scope: expect.stringContaining('mcp:tools'),
          });
          expect(provider.tokens()?.refresh_token).toEqual(expect.any(String));
          const result = await client.callTool({ name: 'whoami', arguments: {} });
          expect(result.content).toEqual([{ type: 'text', text: 'Signed in as ada' }]);
        } finally {
          await client.close();
        }
      });
    });

    describe('metadata', () => {
      it('RFC 8414 metadata: registration, CIMD, S256 only, the iss response parameter, the scopes', async () => {
        const response = await fetch(`${app.origin}/.well-known/oauth-authorization-server`);
        expect(response.status).toBe(200);
        const document = (await response.json()) as Record<string, unknown>;
        expect(document).toMatchObject({
          issuer: app.origin,
          authorization_endpoint: `${app.origin}/oauth/authorize`,
          token_endpoint: `${app.origin}/oauth/token`,
          registration_endpoint: `${app.origin}/oauth/register`,
          jwks_uri: `${app.origin}/oauth/jwks`,
          client_id_metadata_document_supported: true,
          code_challenge_methods_supported: ['S256'],
          authorization_response_iss_parameter_supported: true,
          response_types_supported: ['code'],
          scopes_supported: expect.arrayContaining(['mcp:tools']),
        });
        const discovery = (await (await fetch(`${app.origin}/.well-known/openid-configuration`)).json()) as Record<
          string,
          unknown
        >;
        expect(discovery).toEqual(document);
        // The MCP endpoint's protected resource metadata (RFC 9728) names this authorization server.
        const resource = (await (
          await fetch(`${app.origin}/.well-known/oauth-protected-resource/mcp/staff`)
        ).json()) as {
          resource: string;
          authorization_servers: string[];
        };
        expect(resource).toMatchObject({ resource: app.staffUrl, authorization_servers: [app.origin] });
      });
    });

    describe('users kept apart', () => {
      it("a requestState minted for ada (cancel_booking asks first) is refused for grace; ada's retry completes", async () => {
        const [ada, grace] = [await accessToken('ada'), await accessToken('grace')];
        const call = (token: string, extra: Record<string, unknown> = {}) =>
          post(
            app.staffUrl,
            {
              jsonrpc: '2.0',
              id: 7,
              method: 'tools/call',
              params: {
                name: 'cancel_booking',
                arguments: { reference: 'ABCDEF12' },
                _meta: envelope({ elicitation: { form: {} } }),
                ...extra,
              },
            },
            { ...mcpHeaders('tools/call', 'cancel_booking'), authorization: `Bearer ${token}` },
          );
        const first = await call(ada);
        expect(first.json?.result?.resultType).toBe('input_required');
        const { requestState, inputRequests } = first.json.result as {
          requestState: string;
          inputRequests: Record<string, unknown>;
        };
        const answers = Object.fromEntries(
          Object.keys(inputRequests).map((key) => [key, { action: 'accept', content: { confirm: true } }]),
        );
        const asGrace = await call(grace, { requestState, inputResponses: answers });
        expect(asGrace.json?.id).toBe(7);
        expect(asGrace.json?.error?.code).toBe(-32602);
        expect(asGrace.text).not.toContain('There is no booking');
        const asAda = await call(ada, { requestState, inputResponses: answers });
        expect(asAda.json?.result?.content).toEqual([{ type: 'text', text: 'There is no booking ABCDEF12.' }]);
      });

      it("a 2025-era session opened with ada's token is refused with grace's (403); ada still gets through", async () => {
        // The session id is bound to the principal (the token's sub, the upstream's), as a
        // requestState is.
        const [ada, grace] = [await accessToken('ada'), await accessToken('grace')];
        expect([decodeJwt(ada).sub, decodeJwt(grace).sub]).toEqual(['ada', 'grace']);
        const session = await LegacyWire.open(app.staffUrl, {}, { authorization: `Bearer ${ada}` });
        const asGrace = await session.request(
          'tools/call',
          { name: 'whoami', arguments: {} },
          { authorization: `Bearer ${grace}` },
        );
        expect([asGrace.status, asGrace.json?.error?.code]).toEqual([403, -32600]);
        const asAda = await session.request('tools/call', { name: 'whoami', arguments: {} });
        expect(asAda.status).toBe(200);
        expect(asAda.text).toContain('Signed in as ada');
      });
    });

    describe('security', () => {
      it('an unregistered redirect URI gets an error page, never a redirect (DCR and CIMD clients)', async () => {
        for (const clientId of [await register('Redirect test'), cimdClient('Redirect test')]) {
          const refused = await getNoFollow(authorizeUrl(clientId, { redirect_uri: elsewhere.redirectUri }));
          expect(refused.status).toBe(400);
          expect(refused.location).toBeUndefined();
          expect(refused.text).toContain('redirect_uri did not match');
          // oidc-provider's default error page would load a web font: ours has no external asset.
          expect(refused.text).not.toMatch(/@import|https?:\/\/(?!127\.0\.0\.1)/);
          // The same request with the registered URI goes on to the sign-in.
          const control = await getNoFollow(authorizeUrl(clientId));
          expect(control.location?.pathname).toMatch(/^\/oauth\/interaction\//);
        }
        // And in a browser: it stops on the error page, the other URI is never visited.
        const url = authorizeUrl(await register('Redirect test'), { redirect_uri: elsewhere.redirectUri });
        const stopped = await browser
          .signIn(url, { login: 'mallory', upstreamIssuer: idp.issuer })
          .catch((error: unknown) => error);
        expect(stopped).toBeInstanceOf(SignInStoppedError);
        expect((stopped as SignInStoppedError).text).toContain('redirect_uri did not match');
        expect((stopped as SignInStoppedError).visited.some((page) => page.startsWith(elsewhere.redirectUri))).toBe(
          false,
        );
      });

      it('PKCE: a request without code_challenge, or with the plain method, is refused (no code)', async () => {
        const clientId = await register('PKCE test');
        const { verifier } = pkce();
        for (const params of [
          { code_challenge: undefined, code_challenge_method: undefined },
          { code_challenge: verifier, code_challenge_method: 'plain' },
        ]) {
          const refused = await getNoFollow(authorizeUrl(clientId, params));
          expect(refused.location?.href.startsWith(receiver.redirectUri)).toBe(true);
          expect(refused.location?.searchParams.get('error')).toBe('invalid_request');
          expect(refused.location?.searchParams.get('error_description')).toMatch(/PKCE|code_challenge/);
          expect(refused.location?.searchParams.has('code')).toBe(false);
        }
        const control = await getNoFollow(authorizeUrl(clientId));
        expect(control.location?.pathname).toMatch(/^\/oauth\/interaction\//);
      });

      it('a code works once: invalid_grant the second time', async () => {
        const grant = await signInForCode('ada');
        const first = await redeem(grant);
        expect(first.status).toBe(200);
        expect(first.body).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i) });
        const second = await redeem(grant);
        expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
        // A wrong verifier is refused as well (PKCE at the token endpoint).
        const other = await signInForCode('ada');
        expect(await redeem({ ...other, verifier: pkce().verifier })).toMatchObject({
          status: 400,
          body: { error: 'invalid_grant' },
        });
      });

      it('no token for another resource: invalid_target; a token of this issuer for another audience is refused at /mcp/staff', async () => {
        const clientId = await register('Resource test');
        const refused = await getNoFollow(authorizeUrl(clientId, { resource: `${app.origin}/mcp` }));
        expect(refused.location?.href.startsWith(receiver.redirectUri)).toBe(true);
        expect(refused.location?.searchParams.get('error')).toBe('invalid_target');
        expect(refused.location?.searchParams.has('code')).toBe(false);

        // The ID token: signed by this issuer's key, for the client (aud) rather than the MCP server.
        const { body } = await redeem(await signInForCode('ada', { scope: 'openid mcp:tools' }));
        expect(decodeJwt(body['id_token']!)).toMatchObject({ iss: app.origin, sub: 'ada' });
        const withIdToken = await mcp(
          app.staffUrl,
          'tools/call',
          { name: 'whoami', arguments: {} },
          {
            token: body['id_token']!,
          },
        );
        expect(withIdToken.status).toBe(401);
        expect(parseBearerChallenge(withIdToken.headers.get('www-authenticate'))).toMatchObject({
          error: 'invalid_token',
        });
        const withAccessToken = await mcp(
          app.staffUrl,
          'tools/call',
          { name: 'whoami', arguments: {} },
          {
            token: body['access_token']!,
          },
        );
        expect(withAccessToken.status).toBe(200);
        expect(withAccessToken.body.result.content).toEqual([{ type: 'text', text: 'Signed in as ada' }]);
      });

      it("the upstream's own tokens are refused at /mcp/staff (401), even one whose audience is /mcp/staff", async () => {
        const upstream = await idp.userTokens('ada', { resource: app.staffUrl });
        expect(decodeJwt(upstream.access_token)).toMatchObject({ iss: idp.issuer, aud: app.staffUrl, sub: 'ada' });
        for (const credential of [
          upstream.access_token,
          upstream.id_token!,
          await idp.clientCredentialsToken(app.staffUrl),
        ]) {
          const reply = await mcp(app.staffUrl, 'tools/call', { name: 'whoami', arguments: {} }, { token: credential });
          expect(reply.status).toBe(401);
          expect(parseBearerChallenge(reply.headers.get('www-authenticate'))).toMatchObject({ error: 'invalid_token' });
        }
      });

      it('consent is asked again for a second client in the same browser, signed in already (confused deputy)', async () => {
        const session = await browser.newSession();
        try {
          const first = await register('Trusted host');
          const asked = await session.signIn(authorizeUrl(first), { login: 'ada', upstreamIssuer: idp.issuer });
          expect(asked).toMatchObject({ upstreamLogin: true, code: expect.any(String) });
          expect(asked.consent?.text).toContain('Allow Trusted host');
          // The same client again: the grant stands, no page at all.
          const again = await session.signIn(authorizeUrl(first), { login: 'ada', upstreamIssuer: idp.issuer });
          expect(again).toMatchObject({ upstreamLogin: false, consent: undefined, code: expect.any(String) });
          // Another client in the same browser: no login (the session is there), but our consent page.
          const second = await register('Sneaky host');
          const sneaky = await session.openConsent(authorizeUrl(second), { upstreamIssuer: idp.issuer });
          try {
            expect(sneaky.snapshot.text).toContain('Allow Sneaky host');
            const denied = await sneaky.decide('deny');
            expect(denied).toMatchObject({ upstreamLogin: false, error: 'access_denied', code: undefined });
          } finally {
            await sneaky.page.close();
          }
        } finally {
          await session.close();
        }
      });

      it('the consent form refuses a post without its token, with a wrong one, and from another site', async () => {
        const session = await browser.newSession();
        try {
          const url = authorizeUrl(await register('CSRF test'));
          const consent = await session.openConsent(url, { login: 'ada', upstreamIssuer: idp.issuer });
          try {
            const action = `${new URL(consent.snapshot.url).href}/decision`;
            const csrf = /name="csrf" value="([^"]+)"/.exec(consent.snapshot.html)?.[1];
            expect(csrf).toEqual(expect.any(String));
            // With the browser's cookies (the interaction is found), without the page's token.
            const forms: Record<string, string>[] = [
              { decision: 'allow' },
              { decision: 'allow', csrf: `${csrf!.slice(0, -2)}AA` },
            ];
            for (const form of forms) {
              const posted = await session.context.request.post(action, { form, maxRedirects: 0 });
              expect(posted.status()).toBe(403);
              expect(await posted.text()).toContain('This form is stale or was not sent by this page');
            }
            // From a page of another site (localhost is not 127.0.0.1), even with the right token:
            // the SameSite=Lax cookies stay home, so the sign-in is not found.
            const attacker = await session.context.newPage();
            try {
              await attacker.route('http://localhost:9/**', (route) =>
                route.fulfill({
                  contentType: 'text/html',
                  body: `<!doctype html><form method="post" action="${action}">
<input name="csrf" value="${csrf}"><input name="decision" value="allow"></form>
<script>document.forms[0].submit()</script>`,
                }),
              );
              const answered = attacker.waitForResponse((response) => response.url() === action);
              await attacker.goto('http://localhost:9/attack');
              const response = await answered;
              expect(response.status()).toBe(400);
              expect(await response.text()).toContain('Sign-in failed');
            } finally {
              await attacker.close();
            }
            expect(receiver.received.filter((query) => query.get('state') === url.searchParams.get('state'))).toEqual(
              [],
            );
            // The page itself still works.
            const allowed = await consent.decide('allow');
            expect(allowed).toMatchObject({ code: expect.any(String), state: url.searchParams.get('state') });
          } finally {
            await consent.page.close();
          }
        } finally {
          await session.close();
        }
      });

      describe('client metadata documents', () => {
        /** Asserts the authorization request of `clientId` is refused as invalid_client, on an error page. */
        async function expectInvalidClient(clientId: string, on: SampleProcess = app): Promise<void> {
          const refused = await getNoFollow(authorizeUrl(clientId, {}, on));
          expect(refused.status).toBe(400);
          expect(refused.location).toBeUndefined();
          expect(refused.text).toContain('invalid_client');
        }

        async function expectAccepted(clientId: string, on: SampleProcess = app): Promise<void> {
          const accepted = await getNoFollow(authorizeUrl(clientId, {}, on));
          expect(accepted.location?.pathname).toMatch(/^\/oauth\/interaction\//);
        }

        const document = (name: string) => ({
          client_name: name,
          redirect_uris: [receiver.redirectUri],
          token_endpoint_auth_method: 'none',
        });

        it('too large: refused (5 KiB by default), the same document small is accepted', async () => {
          const path = `/clients/huge-${adapter}.json`;
          const huge = metadata.serveOversize(path, document('Huge'), 100_000);
          await expectInvalidClient(huge);
          expect(metadata.fetchCount(path)).toBeGreaterThanOrEqual(1);
          await expectAccepted(metadata.serve(`/clients/small-${adapter}.json`, document('Huge')));
        });

        it('slow (4 s, past the 2.5 s timeout): refused at the timeout, fetched once', async () => {
          const path = `/clients/slow-${adapter}.json`;
          const slow = metadata.serveSlow(path, document('Slow'), 4_000);
          const started = Date.now();
          await expectInvalidClient(slow);
          const elapsed = Date.now() - started;
          expect(elapsed).toBeGreaterThanOrEqual(2_400);
          expect(elapsed).toBeLessThan(3_800);
          // oidc-provider looks the client up again to render the error: the failure is remembered.
          expect(metadata.fetchCount(path)).toBe(1);
        });

        it('a redirect is not followed, even to a document that would be valid for the client id', async () => {
          const moved = metadata.urlFor(`/clients/moved-${adapter}.json`);
          const target = metadata.serve(`/clients/target-${adapter}.json`, { ...document('Moved'), client_id: moved });
          metadata.serveRedirect(`/clients/moved-${adapter}.json`, target);
          await expectInvalidClient(moved);
        });

        it('a document whose client_id is not its own URL is refused; the same with its own is accepted', async () => {
          const liar = metadata.serveMismatchedClientId(`/clients/liar-${adapter}.json`, document('Liar'));
          await expectInvalidClient(liar);
          await expectAccepted(cimdClient('Liar'));
        });

        it('a document on a loopback address is refused without MCP_AUTH_ALLOW_PRIVATE_CLIENT_METADATA, never fetched', async () => {
          const path = `/clients/private-${adapter}.json`;
          const local = metadata.serve(path, document('Local'));
          await expectInvalidClient(local, strict);
          expect(metadata.fetchCount(path)).toBe(0);
          await expectAccepted(local, app);
          expect(metadata.fetchCount(path)).toBe(1);
        });
      });
    });
  });
});
