import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { BearerTokenStrategy } from './bearer-token.strategy.js';
import { MCP_OAUTH2_STRATEGY } from './mcp-oauth2.constants.js';
import { toMcpOAuth2User, type McpOAuth2User } from './mcp-oauth2-user.js';

/**
 * The Nest face of {@link BearerTokenStrategy}: registered with passport as
 * {@link MCP_OAUTH2_STRATEGY}, it verifies the JWT and returns the user passport puts on
 * `req.user`.
 */
@Injectable()
export class McpOAuth2Strategy extends PassportStrategy(BearerTokenStrategy, MCP_OAUTH2_STRATEGY) {
  constructor(private readonly verifier: AccessTokenVerifier) {
    super();
  }

  async validate(token: string): Promise<McpOAuth2User> {
    return toMcpOAuth2User(await this.verifier.verify(token));
  }
}
