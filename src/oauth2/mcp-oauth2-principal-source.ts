import { Injectable } from '@nestjs/common';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { isMcpOAuth2User } from './mcp-oauth2-user.js';

/**
 * The caller is the `sub` of the verified access token that passport left on `req.user`. Every
 * `requestState` the server mints is bound to it, so an elicitation flow started by one subject
 * cannot be resumed with another subject's token. Requests without a verified token (stdio, or a
 * route the authenticator did not cover) answer `null`, the anonymous principal.
 *
 * It takes precedence over the core's anonymous default; a source the application passes to
 * `McpModule.forRoot({ principalSource })` takes precedence over it.
 */
@Injectable()
export class McpOAuth2PrincipalSource extends McpPrincipalSource {
  resolve({ transport }: Pick<McpExchange, 'transport'>): string | null {
    if (transport.kind !== 'http') return null;
    const user = (transport.request as { user?: unknown }).user;
    return isMcpOAuth2User(user) ? user.sub : null;
  }
}
