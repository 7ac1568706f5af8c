import type { JWTPayload } from 'jose';

/**
 * What the bearer authenticator puts on `req.user` once a token is verified: the subject, the
 * granted scopes and the verified claims. Guards and handlers may read it through
 * `exchange.transport.request` (or `@Req()` on ordinary routes).
 *
 * @publicApi
 */
export interface McpOAuth2User {
  /** The token's `sub`: the resource owner, or the client id for client-credentials tokens. */
  readonly sub: string;
  /** Granted scopes, from the `scope` claim (space-separated) or an `scp` array. */
  readonly scopes: readonly string[];
  /** The OAuth client the token was issued to (`client_id` or `azp`), when the token says so. */
  readonly clientId?: string;
  /** Every verified claim of the access token. */
  readonly claims: Readonly<JWTPayload>;
}

/** Reads scopes from `scope` (RFC 9068, space-separated) or from an `scp` array (common in IdPs). */
export function scopesOf(claims: JWTPayload): string[] {
  const scope = claims['scope'];
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s !== '');
  const scp = claims['scp'];
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string' && s !== '');
  if (typeof scp === 'string') return scp.split(' ').filter((s) => s !== '');
  return [];
}

/** Builds the user from verified claims. */
export function toMcpOAuth2User(claims: JWTPayload): McpOAuth2User {
  const clientId =
    typeof claims['client_id'] === 'string'
      ? claims['client_id']
      : typeof claims['azp'] === 'string'
        ? claims['azp']
        : undefined;
  return Object.freeze({
    sub: claims.sub as string,
    scopes: Object.freeze(scopesOf(claims)),
    ...(clientId === undefined ? {} : { clientId }),
    claims: Object.freeze({ ...claims }),
  });
}

/** Narrows an unknown `req.user` to one this module produced (or one shaped like it). */
export function isMcpOAuth2User(user: unknown): user is McpOAuth2User {
  if (typeof user !== 'object' || user === null) return false;
  const candidate = user as Partial<McpOAuth2User>;
  return typeof candidate.sub === 'string' && candidate.sub !== '' && Array.isArray(candidate.scopes);
}
