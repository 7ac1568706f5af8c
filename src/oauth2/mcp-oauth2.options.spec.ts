import { ASYMMETRIC_ALGORITHMS, resolveMcpOAuth2Options, type McpOAuth2Options } from './mcp-oauth2.options.js';

const problemsOf = (options: unknown): string => {
  try {
    resolveMcpOAuth2Options(options as McpOAuth2Options);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the options to be refused');
};

describe('resolveMcpOAuth2Options', () => {
  it('applies defaults and derives the metadata locations from the audience path', () => {
    const config = resolveMcpOAuth2Options({
      issuer: 'https://auth.example.com',
      audience: 'https://mcp.example.com/mcp',
    });
    expect(config).toMatchObject({
      audience: 'https://mcp.example.com/mcp',
      issuer: 'https://auth.example.com',
      requiredScopes: [],
      authorizationServers: ['https://auth.example.com'],
      clockToleranceSeconds: 30,
      algorithms: ASYMMETRIC_ALGORITHMS,
      jwks: { cacheMaxAgeMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000 },
      resourceMetadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      resourceMetadataPaths: ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'],
    });
    expect(config.scopesSupported).toBeUndefined();
  });

  it('serves only the root location for an audience without a path', () => {
    const config = resolveMcpOAuth2Options({
      jwksUri: 'https://auth.example.com/jwks',
      authorizationServers: ['https://auth.example.com'],
      audience: 'https://mcp.example.com',
    });
    expect(config.resourceMetadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource');
    expect(config.resourceMetadataPaths).toEqual(['/.well-known/oauth-protected-resource']);
    expect(config.issuer).toBeUndefined();
  });

  it('keeps a port and a nested path, dropping a trailing slash', () => {
    const config = resolveMcpOAuth2Options({
      issuer: 'http://127.0.0.1:4000',
      audience: 'http://127.0.0.1:3000/api/mcp/',
    });
    expect(config.audience).toBe('http://127.0.0.1:3000/api/mcp/');
    expect(config.resourceMetadataUrl).toBe('http://127.0.0.1:3000/.well-known/oauth-protected-resource/api/mcp');
  });

  it('says what to set when the audience and the issuer are missing', () => {
    const message = problemsOf({});
    expect(message).toMatch(/^Invalid McpOAuth2Module options:\n {2}- /);
    expect(message).toMatch(/audience: set it to the canonical URI of the MCP endpoint/);
    expect(message).toMatch(/issuer: set the token issuer .* or set jwksUri/);
    expect(message).toMatch(/authorizationServers: set at least one/);
  });

  it.each([
    [{ audience: 'http://mcp.example.com/mcp' }, /audience: use an https URL/],
    [{ audience: 'mcp' }, /audience: "mcp" is not an absolute URL/],
    [{ audience: 'https://mcp.example.com/mcp#x' }, /audience: remove the query and fragment/],
    [{ audience: 'https://mcp.example.com/mcp?tenant=1' }, /audience: remove the query and fragment/],
    [{ issuer: 'http://auth.example.com' }, /issuer: use an https URL/],
    [{ requiredScopes: ['offline_access'] }, /requiredScopes: "offline_access" must not be required/],
    [{ requiredScopes: ['a b'] }, /requiredScopes: "a b" is not a valid scope/],
    [{ requiredScopes: ['say"hi'] }, /is not a valid scope/],
    [{ requiredScopes: 'mcp' }, /requiredScopes: set an array/],
    [{ scopesSupported: ['offline_access'] }, /scopesSupported: "offline_access"/],
    [{ authorizationServers: [] }, /authorizationServers: set a non-empty array/],
    [{ authorizationServers: ['ftp://x'] }, /authorizationServers\[0\]: use an https URL/],
    [{ algorithms: ['HS256'] }, /algorithms: choose one or more of RS256/],
    [{ algorithms: [] }, /algorithms: choose/],
    [{ clockToleranceSeconds: 3600 }, /clockToleranceSeconds: set a number of seconds between 0 and 300/],
    [{ clockToleranceSeconds: -1 }, /clockToleranceSeconds/],
    [{ jwks: { timeoutMs: Number.NaN } }, /jwks\.timeoutMs: set a number of milliseconds/],
    [{ resourceDocumentation: 'docs' }, /resourceDocumentation: "docs" is not an absolute URL/],
    [{ resourceName: ' ' }, /resourceName: set a non-empty string/],
  ])('refuses %j', (override, expected) => {
    expect(
      problemsOf({ issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp', ...override }),
    ).toMatch(expected);
  });

  it('lists every problem at once', () => {
    const message = problemsOf({ audience: 'x', issuer: 'y', clockToleranceSeconds: 9999 });
    expect(message.split('\n  - ')).toHaveLength(4);
  });

  it('accepts localhost and [::1] over http, for development', () => {
    expect(() =>
      resolveMcpOAuth2Options({ issuer: 'http://localhost:8080', audience: 'http://[::1]:3000/mcp' }),
    ).not.toThrow();
  });
});
