import { isMcpOAuth2User, scopesOf, toMcpOAuth2User } from './mcp-oauth2-user.js';

describe('McpOAuth2User', () => {
  it('reads space-separated scope, or an scp array or string', () => {
    expect(scopesOf({ scope: 'a  b c' })).toEqual(['a', 'b', 'c']);
    expect(scopesOf({ scp: ['a', 7, 'b'] })).toEqual(['a', 'b']);
    expect(scopesOf({ scp: 'a b' })).toEqual(['a', 'b']);
    expect(scopesOf({})).toEqual([]);
  });

  it('builds a frozen user with the client id from client_id or azp', () => {
    const user = toMcpOAuth2User({ sub: 'alice', scope: 'x', client_id: 'app' });
    expect(user).toEqual({
      sub: 'alice',
      scopes: ['x'],
      clientId: 'app',
      claims: { sub: 'alice', scope: 'x', client_id: 'app' },
    });
    expect(Object.isFrozen(user)).toBe(true);
    expect(toMcpOAuth2User({ sub: 'bob', azp: 'web' }).clientId).toBe('web');
    expect(toMcpOAuth2User({ sub: 'bob' })).not.toHaveProperty('clientId');
    expect(isMcpOAuth2User(user)).toBe(true);
  });
});
