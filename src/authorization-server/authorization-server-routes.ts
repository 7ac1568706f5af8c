/** The paths the authorization server answers on the application's origin. */
export const AuthorizationServerPath = {
  /** RFC 8414 metadata (the same document as OpenID discovery). */
  Metadata: '/.well-known/oauth-authorization-server',
  Discovery: '/.well-known/openid-configuration',
  Authorize: '/oauth/authorize',
  Token: '/oauth/token',
  Register: '/oauth/register',
  Jwks: '/oauth/jwks',
  Revoke: '/oauth/revoke',
  UserInfo: '/oauth/me',
  PushedAuthorization: '/oauth/par',
  EndSession: '/oauth/session/end',
  /** Sign-in and consent pages: `/oauth/interaction/<uid>`. */
  Interaction: '/oauth/interaction',
  /** The redirect URI registered at the upstream identity provider. */
  UpstreamCallback: '/oauth/callback',
} as const;

/** Whether the authorization server answers `path` (a request path without its query). */
export function isAuthorizationServerPath(path: string): boolean {
  return (
    path === AuthorizationServerPath.Metadata ||
    path === AuthorizationServerPath.Discovery ||
    path === '/oauth' ||
    path.startsWith('/oauth/')
  );
}
