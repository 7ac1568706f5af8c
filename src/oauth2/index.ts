/**
 * `@mocapi/nestjs/oauth2`: the MCP server as an OAuth 2.1 resource server, on @nestjs/passport.
 * Needs the optional peers `@nestjs/passport`, `passport`, `passport-strategy` and `jose`.
 */
export { McpOAuth2Module } from './mcp-oauth2.module.js';
export type { McpOAuth2ConfigurableModule, McpOAuth2OptionsFactory } from './mcp-oauth2.module-definition.js';
export type { McpOAuth2Options } from './mcp-oauth2.options.js';
export { MCP_OAUTH2_STRATEGY } from './mcp-oauth2.constants.js';
export { McpScopes } from './mcp-scopes.decorator.js';
export type { McpOAuth2User } from './mcp-oauth2-user.js';
