/**
 * `@mocapi/nestjs/oauth2`: the MCP server as an OAuth 2.1 resource server, on @nestjs/passport.
 * Needs the optional peers `@nestjs/passport`, `passport`, `passport-strategy` and `jose`.
 */
export { McpOAuth2Module } from './mcp-oauth2.module.js';
export type { McpOAuth2OptionsFactory } from './mcp-oauth2.module-definition.js';
export type { McpOAuth2Options } from './mcp-oauth2.options.js';
export { MCP_OAUTH2_STRATEGY } from './mcp-oauth2.constants.js';
export { McpScopes, getMcpScopes } from './mcp-scopes.decorator.js';
export type { McpOAuth2User } from './mcp-oauth2-user.js';
export { McpOAuth2PrincipalSource } from './mcp-oauth2.principal-source.js';
export { McpScopeAccessPolicy } from './mcp-scope.access-policy.js';
export { McpBearerAuthenticator } from './mcp-bearer.authenticator.js';
export type { ProtectedResourceMetadata } from './protected-resource-metadata.js';
