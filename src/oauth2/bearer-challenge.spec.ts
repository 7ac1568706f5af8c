import { McpHttpChallenge } from '../protocol/mcp-http-challenge.js';
import { formatBearerChallenge, insufficientScopeChallenge, unauthorizedChallenge } from './bearer-challenge.js';

const URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

describe('bearer challenges', () => {
  it('omits error for a request without credentials (RFC 6750 §3.1) and names the metadata and scopes', () => {
    const challenge = unauthorizedChallenge({ resourceMetadataUrl: URL, scopes: ['mcp:tools', 'orders:read'] });
    expect(challenge).toBeInstanceOf(McpHttpChallenge);
    expect(challenge.status).toBe(401);
    expect(challenge.headers['WWW-Authenticate']).toBe(
      `Bearer resource_metadata="${URL}", scope="mcp:tools orders:read"`,
    );
    expect(challenge.body).toEqual({ error: 'unauthorized', error_description: 'A bearer access token is required' });
  });

  it('says invalid_token for a bad token and leaves out an empty scope', () => {
    const challenge = unauthorizedChallenge({
      resourceMetadataUrl: URL,
      scopes: [],
      error: 'invalid_token',
      description: 'The access token expired',
    });
    expect(challenge.headers['WWW-Authenticate']).toBe(
      `Bearer error="invalid_token", error_description="The access token expired", resource_metadata="${URL}"`,
    );
    expect(challenge.body).toEqual({ error: 'invalid_token', error_description: 'The access token expired' });
  });

  it('answers 403 insufficient_scope with every scope needed', () => {
    const challenge = insufficientScopeChallenge(URL, ['mcp:tools', 'orders:write']);
    expect(challenge.status).toBe(403);
    expect(challenge.headers['WWW-Authenticate']).toMatch(/^Bearer error="insufficient_scope", /);
    expect(challenge.headers['WWW-Authenticate']).toContain(`resource_metadata="${URL}"`);
    expect(challenge.headers['WWW-Authenticate']).toContain('scope="mcp:tools orders:write"');
    expect(challenge.body).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:tools orders:write' });
  });

  it('escapes quotes and backslashes and strips line breaks in parameter values', () => {
    expect(formatBearerChallenge({ resourceMetadataUrl: 'u', scopes: [], description: 'a "b" \\ c\r\nd' })).toBe(
      'Bearer error_description="a \\"b\\" \\\\ c  d", resource_metadata="u"',
    );
  });
});
