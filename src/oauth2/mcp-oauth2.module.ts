import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import {
  INTEGRATION_ACCESS_POLICY,
  INTEGRATION_HTTP_AUTHENTICATOR,
  INTEGRATION_PRINCIPAL_SOURCE,
} from '../core/mcp.tokens.js';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { McpBearerAuthenticator } from './mcp-bearer-authenticator.js';
import { MCP_OAUTH2_CONFIG } from './mcp-oauth2.constants.js';
import { McpOAuth2ConfigurableModule, MCP_OAUTH2_MODULE_OPTIONS } from './mcp-oauth2.module-definition.js';
import { resolveMcpOAuth2Options, type McpOAuth2Options } from './mcp-oauth2.options.js';
import { McpOAuth2PrincipalSource } from './mcp-oauth2-principal-source.js';
import { McpOAuth2Strategy } from './mcp-oauth2.strategy.js';
import { McpScopeAccessPolicy } from './mcp-scope-access-policy.js';
import { ProtectedResourceMetadataRoutes } from './protected-resource-metadata.js';

/**
 * Makes the MCP server an OAuth 2.1 resource server: every POST to the MCP endpoint needs a valid
 * JWT bearer token for this server's audience, `@McpScopes` gates tools, prompts and resources,
 * each `requestState` is bound to the token's subject, and the RFC 9728 metadata is served at the
 * well-known locations. Import it next to `McpModule`, in any order:
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpModule.forRoot({ name: 'orders', version: '1.0.0' }),
 *     McpOAuth2Module.forRoot({
 *       issuer: 'https://auth.example.com',
 *       audience: 'https://mcp.example.com/mcp',
 *       requiredScopes: ['mcp:tools'],
 *     }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 *
 * It is global and fills the core's integration slots (principal source, access policy, HTTP
 * authenticator); whatever the application passes to `McpModule.forRoot` still wins.
 *
 * @publicApi
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    {
      provide: MCP_OAUTH2_CONFIG,
      useFactory: (options: McpOAuth2Options) => resolveMcpOAuth2Options(options),
      inject: [MCP_OAUTH2_MODULE_OPTIONS],
    },
    AccessTokenVerifier,
    McpOAuth2Strategy,
    McpBearerAuthenticator,
    McpScopeAccessPolicy,
    McpOAuth2PrincipalSource,
    ProtectedResourceMetadataRoutes,
    { provide: INTEGRATION_PRINCIPAL_SOURCE, useExisting: McpOAuth2PrincipalSource },
    { provide: INTEGRATION_ACCESS_POLICY, useExisting: McpScopeAccessPolicy },
    { provide: INTEGRATION_HTTP_AUTHENTICATOR, useExisting: McpBearerAuthenticator },
  ],
  exports: [
    INTEGRATION_PRINCIPAL_SOURCE,
    INTEGRATION_ACCESS_POLICY,
    INTEGRATION_HTTP_AUTHENTICATOR,
    McpOAuth2PrincipalSource,
    McpScopeAccessPolicy,
    McpBearerAuthenticator,
  ],
})
export class McpOAuth2Module extends McpOAuth2ConfigurableModule {}
