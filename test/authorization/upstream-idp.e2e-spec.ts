import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { SignInStoppedError, TestBrowser } from './support/browser.js';
import { ClientMetadataServer } from './support/client-metadata-server.js';
import { LoopbackRedirectReceiver } from './support/loopback-redirect.js';
import { connectWithSignIn, type ClientEra } from './support/mcp-oauth-client.js';
import { StandInAuthorizationServer } from './support/stand-in-authorization-server.js';
import { createTestCa, trustingFetch, type TestCa } from './support/test-ca.js';
import { UPSTREAM_API_SCOPE, UpstreamIdp } from './support/upstream-idp.js';
import { ordersAppModule } from '../oauth2/support/orders-app.fixture.js';
import { freePort } from '../support/free-port.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const run = promisify(execFile);

/** Runs `node -e` fetching `url`; resolves to the child's stdout, or its error code on failure. */
async function fetchFromChild(url: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; output: string }> {
  const script = `fetch(${JSON.stringify(url)}).then((r) => r.json()).then((j) => console.log(j.issuer), (e) => {
    console.log(String(e.cause?.code ?? e.message)); process.exit(3); })`;
  try {
    const { stdout } = await run(process.execPath, ['-e', script], { env, timeout: 15_000 });
    return { ok: true, output: stdout.trim() };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error).trim() };
  }
}

function envWithout(...names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}

describe('the authorization e2e infrastructure: an Entra-like upstream over HTTPS, a browser, CIMD documents', () => {
  let ca: TestCa;
  let receiver: LoopbackRedirectReceiver;
  let idp: UpstreamIdp;
  let metadata: ClientMetadataServer;
  let browser: TestBrowser;

  beforeAll(async () => {
    ca = createTestCa();
    receiver = await LoopbackRedirectReceiver.start();
    [idp, metadata, browser] = await Promise.all([
      UpstreamIdp.start({ redirectUris: [receiver.redirectUri], tls: ca }),
      ClientMetadataServer.start({ tls: ca }),
      TestBrowser.launch(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([idp?.stop(), metadata?.stop(), receiver?.stop()]);
    ca?.cleanup();
  });
  afterEach(() => {
    receiver.clear();
    expect(idp.errors).toEqual([]);
  });

  describe('the upstream discovery, at <issuer>/.well-known/openid-configuration (issuer with a path, like Entra)', () => {
    it('names the issuer with its path, endpoints under it, and no registration or CIMD', async () => {
      expect(idp.issuer).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/tenant-1\/v2\.0$/);
      const response = await idp.fetch(idp.discoveryUrl);
      expect(response.status).toBe(200);
      const discovery = (await response.json()) as Record<string, unknown>;
      expect(discovery).toMatchObject({
        issuer: idp.issuer,
        authorization_endpoint: `${idp.issuer}/auth`,
        token_endpoint: `${idp.issuer}/token`,
        jwks_uri: `${idp.issuer}/jwks`,
        userinfo_endpoint: `${idp.issuer}/me`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: expect.arrayContaining(['code']),
        scopes_supported: expect.arrayContaining(['openid', 'profile', 'email']),
        claims_supported: expect.arrayContaining(['sub', 'name', 'email']),
        authorization_response_iss_parameter_supported: true,
      });
      expect(discovery).not.toHaveProperty('registration_endpoint');
      expect(discovery).not.toHaveProperty('client_id_metadata_document_supported');
    });

    it('serves its keys at the jwks_uri, and nothing outside the issuer path (no RFC 8414 path insertion, like Entra)', async () => {
      const jwks = (await (await idp.fetch(`${idp.issuer}/jwks`)).json()) as { keys: { kty: string; alg: string }[] };
      expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256' })]);
      const origin = new URL(idp.issuer).origin;
      for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server/tenant-1/v2.0'])
        expect((await idp.fetch(`${origin}${path}`)).status).toBe(404);
    });
  });

  describe('trust in the test CA', () => {
    it('lets a child process fetch the discovery with NODE_EXTRA_CA_CERTS, and not without', async () => {
      const base = envWithout('NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_OPTIONS');
      const trusted = await fetchFromChild(idp.discoveryUrl, { ...base, NODE_EXTRA_CA_CERTS: ca.caPath });
      expect(trusted).toEqual({ ok: true, output: idp.issuer });
      const untrusted = await fetchFromChild(idp.discoveryUrl, base);
      expect(untrusted.ok).toBe(false);
      expect(untrusted.output).toMatch(
        /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT/,
      );
    });

    it('is not in this process: the global fetch refuses the certificate, trustingFetch(ca) accepts it', async () => {
      await expect(fetch(idp.discoveryUrl)).rejects.toMatchObject({
        cause: { code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN/) },
      });
      expect((await trustingFetch(ca.caPem)(idp.discoveryUrl)).status).toBe(200);
      // Another CA's fetch does not accept it: the trust is in this CA, not in anything.
      const other = createTestCa();
      other.cleanup();
      await expect(trustingFetch(other.caPem)(idp.discoveryUrl)).rejects.toMatchObject({
        code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN/),
      });
    });
  });

  describe('the authorization code flow with PKCE, openid-client as the relying party, Chromium as the user', () => {
    let config: oidc.Configuration;
    beforeAll(async () => {
      config = await oidc.discovery(
        new URL(idp.issuer),
        idp.clientId,
        undefined,
        oidc.ClientSecretPost(idp.clientSecret),
        {
          [oidc.customFetch]: idp.fetch,
        },
      );
      config[oidc.customFetch] = idp.fetch;
    });

    async function authorizationRequest(): Promise<{ url: URL; verifier: string; state: string; nonce: string }> {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: receiver.redirectUri,
        scope: 'openid profile email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url, verifier, state, nonce };
    }

    it("signs ada in through the upstream's form: the ID token's sub is the login typed, with her name and email", async () => {
      const request = await authorizationRequest();
      const result = await browser.signIn(request.url, { login: 'ada', upstreamIssuer: idp.issuer });
      expect(result).toMatchObject({
        upstreamLogin: true,
        upstreamConsent: true,
        state: request.state,
        iss: idp.issuer,
      });
      expect(result.consent).toBeUndefined();
      expect(result.code).toEqual(expect.any(String));
      // The browser really reached the loopback receiver, with the same query.
      expect((await receiver.next()).toString()).toBe(result.query.toString());

      const tokens = await oidc.authorizationCodeGrant(config, new URL(result.url), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
      expect(tokens.claims()).toMatchObject({
        iss: idp.issuer,
        aud: idp.clientId,
        sub: 'ada',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        tid: 'tenant-1',
      });
      expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
    });

    it('gives each fresh browser its own user, and a kept session signs in again without the login form', async () => {
      const first = await authorizationRequest();
      const grace = await browser.signIn(first.url, { login: 'grace' });
      const graceTokens = await oidc.authorizationCodeGrant(config, new URL(grace.url), {
        pkceCodeVerifier: first.verifier,
        expectedState: first.state,
        expectedNonce: first.nonce,
      });
      expect(graceTokens.claims()?.sub).toBe('grace');

      const session = await browser.newSession();
      try {
        const alan = await session.signIn((await authorizationRequest()).url, { login: 'alan' });
        expect(alan.upstreamLogin).toBe(true);
        const again = await authorizationRequest();
        const reused = await session.signIn(again.url, { login: 'someone-else' });
        expect(reused).toMatchObject({ upstreamLogin: false, upstreamConsent: false, state: again.state });
        const reusedTokens = await oidc.authorizationCodeGrant(config, new URL(reused.url), {
          pkceCodeVerifier: again.verifier,
          expectedState: again.state,
          expectedNonce: again.nonce,
        });
        expect(reusedTokens.claims()?.sub).toBe('alan');
      } finally {
        await session.close();
      }
    });

    it('stops on the upstream error page for an unregistered redirect URI, and never goes there', async () => {
      const elsewhere = 'http://127.0.0.1:9/elsewhere';
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: elsewhere,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const stopped = await browser.signIn(url, { login: 'ada' }).catch((error: unknown) => error);
      expect(stopped).toBeInstanceOf(SignInStoppedError);
      expect((stopped as SignInStoppedError).text).toContain('redirect_uri did not match');
      expect((stopped as SignInStoppedError).visited.some((visited) => visited.startsWith(elsewhere))).toBe(false);
    });

    it('requires PKCE, and accepts a redirect URI registered after start', async () => {
      const withoutPkce = oidc.buildAuthorizationUrl(config, { redirect_uri: receiver.redirectUri, scope: 'openid' });
      const refused = await idp.fetch(withoutPkce.href, { redirect: 'manual' });
      expect(new URL(refused.headers.get('location')!).searchParams.get('error_description')).toMatch(/PKCE/);

      const later = 'http://127.0.0.1:9/registered-later';
      idp.allowRedirectUri(later);
      const result = await idp.authorize('ada', { redirectUri: later, scope: 'openid' });
      expect(result.query.get('code')).toEqual(expect.any(String));
    });
  });

  describe('upstream tokens obtained without a browser (for the token-passthrough refusal tests)', () => {
    it('issues a user a JWT access token for a resource, and an ID token for the same sub', async () => {
      const resource = 'http://127.0.0.1:1/mcp';
      const tokens = await idp.userTokens('ada', { resource });
      expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        iss: idp.issuer,
        aud: resource,
        sub: 'ada',
        scope: UPSTREAM_API_SCOPE,
      });
      expect(decodeJwt(tokens.id_token!)).toMatchObject({ sub: 'ada', name: 'Ada Lovelace' });
      expect(tokens.refresh_token).toEqual(expect.any(String));

      const machine = decodeJwt(await idp.clientCredentialsToken(resource));
      expect(machine).toMatchObject({ iss: idp.issuer, aud: resource, sub: idp.clientId });
    });
  });

  describe('the client ID metadata document server', () => {
    const redirect_uris = ['http://127.0.0.1:1/callback'];

    it('serves a document whose client_id is its own URL, and counts the fetches', async () => {
      const url = metadata.serve('/clients/claude.json', { client_name: 'Claude', redirect_uris });
      expect(url).toBe(`${metadata.origin}/clients/claude.json`);
      const before = metadata.fetchCount('/clients/claude.json');
      const response = await idp.fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ client_id: url, client_name: 'Claude', redirect_uris });
      expect(metadata.fetchCount('/clients/claude.json')).toBe(before + 1);
      expect((await idp.fetch(`${metadata.origin}/clients/nobody.json`)).status).toBe(404);
    });

    it('pads a document past 100 KB, still valid JSON', async () => {
      const url = metadata.serveOversize('/clients/huge.json', { client_name: 'Huge', redirect_uris });
      const response = await idp.fetch(url);
      const body = await response.text();
      expect(Number(response.headers.get('content-length'))).toBeGreaterThanOrEqual(100_000);
      expect(body.length).toBeGreaterThanOrEqual(100_000);
      expect(JSON.parse(body)).toMatchObject({ client_id: url, client_name: 'Huge' });
    });

    it('answers late when slow (a short timeout aborts), and redirects when told to', async () => {
      const slow = metadata.serveSlow('/clients/slow.json', { redirect_uris }, 1_000);
      const started = Date.now();
      await expect(idp.fetch(slow, { signal: AbortSignal.timeout(200) })).rejects.toMatchObject({
        name: expect.stringMatching(/AbortError|TimeoutError/),
      });
      expect(Date.now() - started).toBeLessThan(800);
      expect((await idp.fetch(slow)).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);

      const target = metadata.serve('/clients/target.json', { redirect_uris });
      const redirecting = metadata.serveRedirect('/clients/moved.json', target);
      const response = await idp.fetch(redirecting, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(target);
    });

    it('serves a document that lies about its client_id, and one whose redirect URIs are not the client’s', async () => {
      const liar = metadata.serveMismatchedClientId('/clients/liar.json', { client_name: 'Liar', redirect_uris });
      const document = (await (await idp.fetch(liar)).json()) as { client_id: string };
      expect(document.client_id).not.toBe(liar);
      expect(document.client_id).toBe(`${metadata.origin}/clients/someone-else.json`);

      const other = metadata.serve('/clients/other-redirect.json', { redirect_uris: ['https://attacker.example/cb'] });
      expect(await (await idp.fetch(other)).json()).toMatchObject({
        client_id: other,
        redirect_uris: ['https://attacker.example/cb'],
      });
    });
  });
  describe('the official client helpers, against a stand-in authorization server (until the module exists)', () => {
    let standIn: StandInAuthorizationServer;
    let app: RunningApp;
    beforeAll(async () => {
      standIn = await StandInAuthorizationServer.start({ scopes: ['mcp:tools'], caPem: ca.caPem });
      const port = await freePort();
      const module = ordersAppModule({
        oauth2: { issuer: standIn.issuer, audience: `http://127.0.0.1:${port}/mcp`, requiredScopes: ['mcp:tools'] },
      });
      app = await startApp(module, 'express', { port });
    });
    afterAll(async () => {
      await app?.close();
      await standIn?.stop();
    });

    it.each([
      ['dcr', 'modern'],
      ['cimd', 'modern'],
      ['dcr', 'legacy'],
      ['cimd', 'legacy'],
    ] as const)(
      'connectWithSignIn (%s, %s era) signs in through the browser and calls a tool as the user',
      async (mode, era: ClientEra) => {
        const before = metadata.fetches.length;
        const { client, provider, callback, signIn } = await connectWithSignIn(app.url, {
          mode,
          era,
          login: 'grace',
          browser,
          receiver,
          metadataServer: metadata,
        });
        try {
          expect(callback?.get('iss')).toBe(standIn.issuer);
          expect(signIn).toMatchObject({ upstreamLogin: true });
          const clientId = provider.clientInformation()?.client_id;
          if (mode === 'cimd') {
            expect(clientId).toBe(provider.clientMetadataUrl);
            expect(clientId).toMatch(new RegExp(`^${metadata.origin}/clients/`));
            expect(metadata.fetches.length).toBeGreaterThan(before);
          } else {
            expect(clientId).not.toMatch(/^https:/);
            expect(metadata.fetches.length).toBe(before);
          }
          expect(decodeJwt(provider.tokens()!.access_token)).toMatchObject({
            iss: standIn.issuer,
            aud: app.url,
            sub: 'grace',
          });
          const result = await client.callTool({ name: 'whoami', arguments: {} });
          expect(JSON.stringify(result)).toContain('grace');
        } finally {
          await client.close();
        }
      },
    );

    it('rejects with the callback when the user cancels at the authorization server', async () => {
      // The stand-in's consent has no deny button: cancel its login instead, through its abort link.
      const session = await browser.newSession();
      try {
        const denied = connectWithSignIn(app.url, {
          mode: 'dcr',
          browser: {
            signIn: async (url: string | URL) => {
              const page = await session.context.newPage();
              await page.goto(String(url));
              await Promise.all([
                page.waitForURL((current) => current.href.startsWith(receiver.redirectUri)),
                page.click('a[href*="/abort"]'),
              ]);
              await page.close();
            },
          } as never,
          receiver,
        });
        await expect(denied).rejects.toMatchObject({ name: 'AuthorizationFailedError' });
      } finally {
        await session.close();
      }
    });
  });
});
