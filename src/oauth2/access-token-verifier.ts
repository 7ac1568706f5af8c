import { Inject, Injectable } from '@nestjs/common';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { InvalidTokenError } from './invalid-token.error.js';
import { MCP_OAUTH2_CONFIG } from './mcp-oauth2.constants.js';
import type { McpOAuth2Config } from './mcp-oauth2.options.js';

/** Failures that say something about the token, not about our ability to check it. */
const TOKEN_FAULTS = new Set<string>([
  errors.JWTClaimValidationFailed.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JWSInvalid.code,
  errors.JWTInvalid.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
]);

/** Header values longer than this are not tokens we issue; refuse before any parsing. */
const MAX_TOKEN_LENGTH = 16 * 1024;

/**
 * Verifies JWT access tokens (RFC 9068) with jose: signature through the issuer's JWKS, `iss`,
 * `aud` (RFC 8707: this server's canonical URI), `exp`/`nbf` with a small clock tolerance, and a
 * `sub`. The key set is fetched lazily, cached, and refetched when a token names an unknown `kid`
 * (key rollover at the issuer), no more often than the configured cooldown.
 */
@Injectable()
export class AccessTokenVerifier {
  private keySet?: Promise<JWTVerifyGetKey>;

  constructor(@Inject(MCP_OAUTH2_CONFIG) private readonly config: McpOAuth2Config) {}

  /**
   * Returns the verified claims, or throws {@link InvalidTokenError} for a token that must be
   * refused. Any other error means the token could not be checked (e.g. the issuer is down).
   */
  async verify(token: string): Promise<JWTPayload> {
    if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('The access token is invalid');
    const keys = await this.keys();
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: [...this.config.algorithms],
        clockTolerance: this.config.clockToleranceSeconds,
        requiredClaims: ['exp', 'sub'],
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        throw new InvalidTokenError('The access token has no subject');
      }
      return payload;
    } catch (error) {
      throw classify(error);
    }
  }

  private keys(): Promise<JWTVerifyGetKey> {
    // A failed discovery is forgotten so that the next request tries again.
    this.keySet ??= this.createKeySet().catch((error: unknown) => {
      this.keySet = undefined;
      throw error;
    });
    return this.keySet;
  }

  private async createKeySet(): Promise<JWTVerifyGetKey> {
    const jwksUri = this.config.jwksUri ?? (await this.discoverJwksUri());
    return createRemoteJWKSet(new URL(jwksUri), {
      cacheMaxAge: this.config.jwks.cacheMaxAgeMs,
      cooldownDuration: this.config.jwks.cooldownMs,
      timeoutDuration: this.config.jwks.timeoutMs,
    });
  }

  /**
   * OpenID Connect Discovery first, then RFC 8414 (path-inserted). The document must name the
   * configured issuer exactly, as both specifications require, or its keys are not trusted.
   */
  private async discoverJwksUri(): Promise<string> {
    const issuer = this.config.issuer as string;
    const url = new URL(issuer);
    const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
    const candidates = [
      `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      `${url.origin}/.well-known/oauth-authorization-server${path}`,
    ];
    const failures: string[] = [];
    for (const candidate of candidates) {
      let response: Response;
      try {
        response = await fetch(candidate, {
          headers: { accept: 'application/json' },
          redirect: 'error',
          signal: AbortSignal.timeout(this.config.jwks.timeoutMs),
        });
      } catch (error) {
        failures.push(`${candidate}: ${(error as Error).message}`);
        continue;
      }
      if (!response.ok) {
        failures.push(`${candidate}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer) {
        throw new Error(
          `McpOAuth2Module: ${candidate} names issuer ${JSON.stringify(metadata.issuer)}, expected ${JSON.stringify(issuer)}`,
        );
      }
      if (typeof metadata.jwks_uri !== 'string') {
        throw new Error(`McpOAuth2Module: ${candidate} has no jwks_uri; set jwksUri in the options`);
      }
      return metadata.jwks_uri;
    }
    throw new Error(
      `McpOAuth2Module: cannot discover the issuer's keys (${failures.join('; ')}); set jwksUri or check issuer`,
    );
  }
}

function classify(error: unknown): unknown {
  if (error instanceof InvalidTokenError) return error;
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('The access token expired', { cause: error });
  if (error instanceof errors.JOSEError && TOKEN_FAULTS.has(error.code)) {
    return new InvalidTokenError('The access token is invalid', { cause: error });
  }
  return error;
}
