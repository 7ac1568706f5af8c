import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import passport from 'passport';
import { McpHttpChallenge } from '../protocol/mcp-http-challenge.js';
import { McpHttpAuthenticator } from '../transport/http/mcp-http-authenticator.js';
import { insufficientScopeChallenge, unauthorizedChallenge } from './bearer-challenge.js';
import type { BearerFailure } from './bearer-token.strategy.js';
import { MCP_OAUTH2_CONFIG } from './mcp-oauth2.constants.js';
import type { McpOAuth2Config } from './mcp-oauth2.options.js';
import { McpOAuth2Strategy } from './mcp-oauth2.strategy.js';
import { isMcpOAuth2User, type McpOAuth2User } from './mcp-oauth2-user.js';

/** The request as passport leaves it, with the user this module sets. */
type AuthenticatedRequest = IncomingMessage & { user?: unknown };

/**
 * Authenticates every POST to the MCP endpoint with the passport bearer strategy (no session, a
 * custom callback), enforces the module's required scopes and leaves the {@link McpOAuth2User} on
 * `req.user`. Refusals are {@link McpHttpChallenge}s that the transport writes as is: 401 with a
 * `WWW-Authenticate: Bearer resource_metadata=…` challenge, 403 `insufficient_scope`, or 503 when
 * the token cannot be checked at all (the issuer's keys are unreachable).
 */
@Injectable()
export class McpBearerAuthenticator extends McpHttpAuthenticator {
  private readonly logger = new Logger('McpOAuth2');

  constructor(
    private readonly strategy: McpOAuth2Strategy,
    @Inject(MCP_OAUTH2_CONFIG) private readonly config: McpOAuth2Config,
  ) {
    super();
  }

  async authenticate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const user = await this.runStrategy(req, res);
    const missing = this.config.requiredScopes.filter((scope) => !user.scopes.includes(scope));
    if (missing.length > 0) {
      throw insufficientScopeChallenge(this.config.resourceMetadataUrl, this.config.requiredScopes);
    }
    (req as AuthenticatedRequest).user = user;
  }

  private runStrategy(req: IncomingMessage, res: ServerResponse): Promise<McpOAuth2User> {
    return new Promise<McpOAuth2User>((resolve, reject) => {
      const onOutcome = (error: unknown, user: unknown, info: unknown): void => {
        if (error) {
          this.logger.error(`Cannot verify access tokens: ${(error as Error)?.message ?? String(error)}`);
          reject(
            new McpHttpChallenge(
              503,
              { 'Retry-After': '5' },
              {
                error: 'temporarily_unavailable',
                error_description: 'The access token cannot be verified right now',
              },
            ),
          );
        } else if (isMcpOAuth2User(user)) {
          resolve(user);
        } else {
          const failure = (info ?? {}) as BearerFailure;
          reject(
            unauthorizedChallenge({
              resourceMetadataUrl: this.config.resourceMetadataUrl,
              scopes: this.config.requiredScopes,
              error: failure.error,
              description: failure.description,
            }),
          );
        }
      };
      // A fresh object per request: passport attaches success/fail to the strategy it is given,
      // so sharing the singleton between concurrent requests would cross their outcomes.
      const perRequest = Object.create(this.strategy) as McpOAuth2Strategy;
      const middleware = passport.authenticate(perRequest, { session: false }, onOutcome) as (
        req: IncomingMessage,
        res: ServerResponse,
        next: (error?: unknown) => void,
      ) => void;
      middleware(req, res, (error?: unknown) =>
        onOutcome(error ?? new Error('passport did not decide'), false, undefined),
      );
    });
  }
}
