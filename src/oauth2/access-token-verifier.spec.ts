import { generateKeyPair, SignJWT } from 'jose';
import { LocalIssuer } from '../../test/oauth2/local-issuer.js';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { InvalidTokenError } from './invalid-token.error.js';
import { resolveMcpOAuth2Options, type McpOAuth2Options } from './mcp-oauth2.options.js';

const AUDIENCE = 'https://mcp.example.com/mcp';

describe('AccessTokenVerifier', () => {
  let issuer: LocalIssuer;

  beforeEach(async () => {
    issuer = await LocalIssuer.start();
    await issuer.addKey('k1');
  });
  afterEach(() => issuer.stop());

  const verifier = (extra: Partial<McpOAuth2Options> = {}): AccessTokenVerifier =>
    new AccessTokenVerifier(resolveMcpOAuth2Options({ issuer: issuer.issuer, audience: AUDIENCE, ...extra }));

  const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new Error('expected a rejection');
  };

  it('accepts a token for this audience and returns its claims', async () => {
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE, scope: 'a b' });
    const claims = await verifier().verify(token);
    expect(claims).toMatchObject({ sub: 'alice', iss: issuer.issuer, aud: AUDIENCE, scope: 'a b' });
  });

  it('accepts an audience array that contains this server', async () => {
    const token = await issuer.sign({ sub: 'alice', aud: ['https://other.example.com', AUDIENCE] });
    await expect(verifier().verify(token)).resolves.toMatchObject({ sub: 'alice' });
  });

  it('finds the keys through OpenID discovery once, then serves them from cache', async () => {
    const v = verifier();
    for (let i = 0; i < 3; i++) await v.verify(await issuer.sign({ sub: 'alice', aud: AUDIENCE }));
    expect(issuer.fetches).toEqual({ discovery: 1, jwks: 1 });
  });

  it('uses a configured jwksUri without discovery', async () => {
    const v = verifier({ jwksUri: issuer.jwksUri });
    await v.verify(await issuer.sign({ sub: 'alice', aud: AUDIENCE }));
    expect(issuer.fetches).toEqual({ discovery: 0, jwks: 1 });
  });

  it('refetches the key set when a token names an unknown kid (key rollover)', async () => {
    const v = verifier({ jwks: { cooldownMs: 0 } });
    await v.verify(await issuer.sign({ sub: 'alice', aud: AUDIENCE }, { kid: 'k1' }));
    await issuer.addKey('k2', 'RS256');
    issuer.removeKey('k1');
    await expect(v.verify(await issuer.sign({ sub: 'alice', aud: AUDIENCE }, { kid: 'k2' }))).resolves.toMatchObject({
      sub: 'alice',
    });
    expect(issuer.fetches.jwks).toBe(2);
  });

  it.each([
    ['another audience (RFC 8707)', { aud: 'https://other.example.com/mcp' }],
    ['no audience', { aud: null }],
    ['another issuer', { iss: 'https://evil.example.com' }],
    ['no subject', { sub: null }],
    ['an empty subject', { sub: '' }],
    ['no expiry', { exp: null }],
    ['a not-before in the future', { nbf: Math.floor(Date.now() / 1000) + 600 }],
  ])('refuses a token with %s', async (_label, claims) => {
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE, ...claims });
    const error = await rejection(verifier().verify(token));
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect((error as InvalidTokenError).description).not.toMatch(/expired/);
  });

  it('refuses a token expired beyond the clock tolerance, saying it expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE, iat: now - 600, exp: now - 31 });
    const error = await rejection(verifier().verify(token));
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect((error as InvalidTokenError).description).toBe('The access token expired');
  });

  it('tolerates a small clock skew on expiry', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE, iat: now - 600, exp: now - 10 });
    await expect(verifier().verify(token)).resolves.toMatchObject({ sub: 'alice' });
    await expect(rejection(verifier({ clockToleranceSeconds: 0 }).verify(token))).resolves.toBeInstanceOf(
      InvalidTokenError,
    );
  });

  it('refuses a token signed by a key that is not the issuer’s, even under a known kid', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE }, { kid: 'k1', signWith: privateKey });
    await expect(rejection(verifier().verify(token))).resolves.toBeInstanceOf(InvalidTokenError);
  });

  it('refuses an HMAC token (the algorithm confusion attack) and alg "none"', async () => {
    const now = Math.floor(Date.now() / 1000);
    const hmac = await new SignJWT({ sub: 'alice', aud: AUDIENCE, iss: issuer.issuer, exp: now + 60 })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(new TextEncoder().encode('a-secret-of-at-least-thirty-two-bytes!!'));
    await expect(rejection(verifier().verify(hmac))).resolves.toBeInstanceOf(InvalidTokenError);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'alice', aud: AUDIENCE, iss: issuer.issuer, exp: now + 60 }),
    ).toString('base64url')}.`;
    await expect(rejection(verifier().verify(none))).resolves.toBeInstanceOf(InvalidTokenError);
  });

  it('refuses an algorithm outside the configured list', async () => {
    await issuer.addKey('rsa', 'RS256');
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE }, { kid: 'rsa' });
    await expect(rejection(verifier({ algorithms: ['ES256'] }).verify(token))).resolves.toBeInstanceOf(
      InvalidTokenError,
    );
  });

  it.each(['garbage', 'a.b.c', 'x'.repeat(20_000)])('refuses a malformed token %#', async (token) => {
    await expect(rejection(verifier().verify(token))).resolves.toBeInstanceOf(InvalidTokenError);
  });

  it('does not trust a discovery document that names another issuer', async () => {
    issuer.discoveryOverride = { issuer: 'https://evil.example.com', jwks_uri: issuer.jwksUri };
    const error = await rejection(verifier().verify(await issuer.sign({ sub: 'alice', aud: AUDIENCE })));
    expect(error).not.toBeInstanceOf(InvalidTokenError);
    expect((error as Error).message).toMatch(/names issuer "https:\/\/evil\.example\.com"/);
    expect(issuer.fetches.jwks).toBe(0);
  });

  it('reports an unreachable issuer as a server-side failure and retries discovery later', async () => {
    issuer.discoveryOverride = null;
    const v = verifier();
    const token = await issuer.sign({ sub: 'alice', aud: AUDIENCE });
    const error = await rejection(v.verify(token));
    expect(error).not.toBeInstanceOf(InvalidTokenError);
    expect((error as Error).message).toMatch(/cannot discover the issuer's keys/);
    issuer.discoveryOverride = undefined;
    await expect(v.verify(token)).resolves.toMatchObject({ sub: 'alice' });
  });
});
