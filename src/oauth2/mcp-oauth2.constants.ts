/**
 * The passport strategy name under which the bearer-token strategy registers itself. An
 * application may reuse it on its own routes: `@UseGuards(AuthGuard(MCP_OAUTH2_STRATEGY))`.
 *
 * @publicApi
 */
export const MCP_OAUTH2_STRATEGY = 'mcp-oauth2-bearer';

/** Reflect metadata key under which `@McpScopes` stores the scopes a handler requires. */
export const MCP_SCOPES_METADATA = 'mocapi:oauth2:scopes';

/** The validated, normalised configuration (internal; the raw options token stays private too). */
export const MCP_OAUTH2_CONFIG = Symbol.for('mocapi:oauth2:config');

/** The well-known path of RFC 9728 protected resource metadata. */
export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';
