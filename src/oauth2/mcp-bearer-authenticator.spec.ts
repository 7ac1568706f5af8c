import type { IncomingMessage, ServerResponse } from 'node:http';
import { Test } from '@nestjs/testing';
import { LocalIssuer } from '../../test/oauth2/local-issuer.js';
import { McpHttpChallenge } from '../protocol/mcp-http-challenge.js';
import { McpBearerAuthenticator } from './mcp-bearer-authenticator.js';
import { McpOAuth2Module } from './mcp-oauth2.module.js';
import type { McpOAuth2Options } from './mcp-oauth2.options.js';

const AUDIENCE = 'https://mcp.example.com/mcp';
const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

type TestRequest = IncomingMessage & { user?: unknown };

describe('McpBearerAuthenticator', () => {
  let issuer: LocalIssuer;

  beforeAll(async () => {
    issuer = await LocalIssuer.start();
    await issuer.addKey('k1');
  });
  afterAll(() => issuer.stop());

  const authenticatorFor = async (extra: Partial<McpOAuth2Options> = {}): Promise<McpBearerAuthenticator> => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpOAuth2Module.forRoot({ issuer: issuer.issuer, audience: AUDIENCE, requiredScopes: ['mcp:tools'], ...extra }),
      ],
    }).compile();
    return moduleRef.get(McpBearerAuthenticator);
  };

  const request = (headers: Record<string, string>, url = '/mcp'): TestRequest =>
    ({ headers, url, method: 'POST' }) as unknown as TestRequest;
  const response = {} as ServerResponse;

  const challengeOf = async (authenticator: McpBearerAuthenticator, req: TestRequest): Promise<McpHttpChallenge> => {
    try {
      await authenticator.authenticate(req, response);
    } catch (error) {
      if (error instanceof McpHttpChallenge) return error;
      throw error;
    }
    throw new Error('expected a challenge');
  };

  const token = (claims: Record<string, unknown> = {}): Promise<string> =>
    issuer.sign({ sub: 'alice', aud: AUDIENCE, scope: 'mcp:tools orders:read', client_id: 'alice-app', ...claims });

  it('puts the verified user on req.user', async () => {
    const authenticator = await authenticatorFor();
    const req = request({ authorization: `Bearer ${await token()}` });
    await authenticator.authenticate(req, response);
    expect(req.user).toMatchObject({ sub: 'alice', scopes: ['mcp:tools', 'orders:read'], clientId: 'alice-app' });
  });

  it('accepts the scheme in any case', async () => {
    const authenticator = await authenticatorFor();
    const req = request({ authorization: `bEaReR ${await token()}` });
    await authenticator.authenticate(req, response);
    expect(req.user).toMatchObject({ sub: 'alice' });
  });

  it('challenges a request without a token: 401, no error code, metadata and scope', async () => {
    const challenge = await challengeOf(await authenticatorFor(), request({}));
    expect(challenge.status).toBe(401);
    expect(challenge.headers['WWW-Authenticate']).toBe(`Bearer resource_metadata="${METADATA}", scope="mcp:tools"`);
  });

  it('never takes the token from the query string or another scheme', async () => {
    const authenticator = await authenticatorFor();
    const value = await token();
    for (const req of [request({}, `/mcp?access_token=${value}`), request({ authorization: `Basic ${value}` })]) {
      const challenge = await challengeOf(authenticator, req);
      expect(challenge.status).toBe(401);
      expect(challenge.headers['WWW-Authenticate']).not.toContain('error=');
      expect(req.user).toBeUndefined();
    }
  });

  it.each([
    ['a malformed header', async () => 'Bearer a b c'],
    ['an empty bearer', async () => 'Bearer '],
    ['another audience', async () => `Bearer ${await token({ aud: 'https://other.example.com/mcp' })}`],
    ['an expired token', async () => `Bearer ${await token({ exp: Math.floor(Date.now() / 1000) - 120 })}`],
    ['a token for another issuer', async () => `Bearer ${await token({ iss: 'https://evil.example.com' })}`],
  ])('answers %s with 401 invalid_token', async (_label, header) => {
    const challenge = await challengeOf(await authenticatorFor(), request({ authorization: await header() }));
    expect(challenge.status).toBe(401);
    expect(challenge.headers['WWW-Authenticate']).toMatch(
      new RegExp(
        `^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="${METADATA}", scope="mcp:tools"$`,
      ),
    );
    expect(challenge.body).toMatchObject({ error: 'invalid_token' });
  });

  it('says the token expired when it did', async () => {
    const expired = await token({ exp: Math.floor(Date.now() / 1000) - 120 });
    const challenge = await challengeOf(await authenticatorFor(), request({ authorization: `Bearer ${expired}` }));
    expect(challenge.body).toEqual({ error: 'invalid_token', error_description: 'The access token expired' });
  });

  it('answers a valid token without the required scopes with 403 insufficient_scope', async () => {
    const req = request({ authorization: `Bearer ${await token({ scope: 'orders:read' })}` });
    const challenge = await challengeOf(await authenticatorFor({ requiredScopes: ['mcp:tools', 'mcp:read'] }), req);
    expect(challenge.status).toBe(403);
    expect(challenge.headers['WWW-Authenticate']).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks a required scope", resource_metadata="${METADATA}", scope="mcp:tools mcp:read"`,
    );
    expect(req.user).toBeUndefined();
  });

  it('keeps concurrent requests apart', async () => {
    const authenticator = await authenticatorFor();
    const good = request({ authorization: `Bearer ${await token()}` });
    const bad = request({ authorization: `Bearer ${await token({ aud: 'https://other.example.com' })}` });
    const bob = request({ authorization: `Bearer ${await token({ sub: 'bob' })}` });
    const outcomes = await Promise.allSettled([
      authenticator.authenticate(good, response),
      authenticator.authenticate(bad, response),
      authenticator.authenticate(bob, response),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([good.user, bob.user]).toMatchObject([{ sub: 'alice' }, { sub: 'bob' }]);
    expect(bad.user).toBeUndefined();
  });

  it('answers 503 when the issuer’s keys cannot be fetched, without blaming the token', async () => {
    const authenticator = await authenticatorFor({
      issuer: undefined,
      jwksUri: 'http://127.0.0.1:9/jwks',
      authorizationServers: ['https://auth.example.com'],
    });
    const challenge = await challengeOf(authenticator, request({ authorization: `Bearer ${await token()}` }));
    expect(challenge.status).toBe(503);
    expect(challenge.body).toMatchObject({ error: 'temporarily_unavailable' });
  });
});
