import { Inject, Injectable } from '@nestjs/common';
import { McpAccessPolicy, type McpAccessTarget } from '../calls/mcp-access-policy.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { insufficientScopeChallenge, unauthorizedChallenge } from './bearer-challenge.js';
import { MCP_OAUTH2_CONFIG } from './mcp-oauth2.constants.js';
import type { McpOAuth2Config } from './mcp-oauth2.options.js';
import { isMcpOAuth2User } from './mcp-oauth2-user.js';
import { getMcpScopes } from './mcp-scopes.decorator.js';

/**
 * Enforces `@McpScopes`: over HTTP a tool, prompt or resource whose scopes the token lacks is
 * left out of list results, and calling it is refused with 403 `insufficient_scope` naming every
 * scope the operation needs (the module's required scopes plus the handler's), so a client can
 * step up. Requests that did not come over HTTP (stdio) carry no bearer token; bearer scopes do
 * not apply to them, as MCP authorization is defined for HTTP only.
 */
@Injectable()
export class McpScopeAccessPolicy extends McpAccessPolicy {
  private readonly scopeCache = new WeakMap<Function, Map<string, readonly string[]>>();

  constructor(@Inject(MCP_OAUTH2_CONFIG) private readonly config: McpOAuth2Config) {
    super();
  }

  isVisible(exchange: McpExchange, target: McpAccessTarget): boolean {
    const needed = this.scopesOf(target);
    if (needed.length === 0 || exchange.transport.kind !== 'http') return true;
    const granted = grantedScopes(exchange);
    return granted !== null && needed.every((scope) => granted.includes(scope));
  }

  assertAllowed(exchange: McpExchange, target: McpAccessTarget): void {
    const needed = this.scopesOf(target);
    if (needed.length === 0 || exchange.transport.kind !== 'http') return;
    const granted = grantedScopes(exchange);
    if (granted === null) {
      throw unauthorizedChallenge({
        resourceMetadataUrl: this.config.resourceMetadataUrl,
        scopes: this.allNeeded(needed),
      });
    }
    if (!needed.every((scope) => granted.includes(scope))) {
      throw insufficientScopeChallenge(this.config.resourceMetadataUrl, this.allNeeded(needed));
    }
  }

  private allNeeded(handlerScopes: readonly string[]): string[] {
    return [...new Set([...this.config.requiredScopes, ...handlerScopes])];
  }

  private scopesOf(target: McpAccessTarget): readonly string[] {
    let byName = this.scopeCache.get(target.handlerClass);
    if (byName === undefined) {
      byName = new Map();
      this.scopeCache.set(target.handlerClass, byName);
    }
    let scopes = byName.get(target.handlerName);
    if (scopes === undefined) {
      scopes = getMcpScopes(target.handlerClass, target.handlerName);
      byName.set(target.handlerName, scopes);
    }
    return scopes;
  }
}

/** The scopes of the authenticated caller, or null when the request carries no verified token. */
function grantedScopes(exchange: McpExchange): readonly string[] | null {
  if (exchange.transport.kind !== 'http') return null;
  const user = (exchange.transport.request as { user?: unknown }).user;
  return isMcpOAuth2User(user) ? user.scopes : null;
}
