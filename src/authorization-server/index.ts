/**
 * `@mocapi/nestjs/authorization-server`: an OAuth 2.1 authorization server for MCP hosts that
 * federates sign-in to the company's identity provider. Needs the optional peers `oidc-provider`
 * (9), `openid-client` (6) and `jose`.
 */
export { McpAuthorizationServerModule } from './mcp-authorization-server.module.js';
export type {
  McpAuthorizationServerConfigurableModule,
  McpAuthorizationServerOptionsFactory,
} from './mcp-authorization-server.module-definition.js';
export type {
  McpAuthorizationServerOptions,
  McpPreRegisteredClient,
  McpUpstreamIdentityProvider,
} from './mcp-authorization-server.options.js';
export { McpAuthorizationStore, type McpAuthorizationRecord } from './mcp-authorization.store.js';
export { InMemoryAuthorizationStore } from './in-memory-authorization.store.js';
