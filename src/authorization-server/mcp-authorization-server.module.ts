import { Module } from '@nestjs/common';
import { InMemoryAuthorizationStore } from './in-memory-authorization.store.js';
import { McpAuthorizationStore } from './mcp-authorization.store.js';
import { McpAuthorizationServer } from './mcp-authorization-server.js';
import {
  MCP_AUTHORIZATION_SERVER_CONFIG,
  MCP_AUTHORIZATION_SERVER_MODULE_OPTIONS,
  McpAuthorizationServerConfigurableModule,
} from './mcp-authorization-server.module-definition.js';
import {
  type McpAuthorizationServerOptions,
  type ResolvedMcpAuthorizationServerOptions,
  resolveMcpAuthorizationServerOptions,
} from './mcp-authorization-server.options.js';

/**
 * An OAuth 2.1 authorization server for MCP hosts, in the application itself, on oidc-provider:
 * hosts sign in with a Client ID Metadata Document or Dynamic Client Registration, the user signs in
 * at the company's identity provider (`upstream`), allows the host on a consent page, and the host
 * gets short-lived JWT access tokens for the MCP server (and rotating refresh tokens). Import it next
 * to `McpModule` and `McpOAuth2Module`, whose `issuer` is this server's:
 *
 * ```ts
 * McpAuthorizationServerModule.forRoot({
 *   issuer: 'https://mcp.example.com',
 *   resources: ['https://mcp.example.com/mcp'],
 *   upstream: { issuer: 'https://login.microsoftonline.com/<tenant>/v2.0', clientId: '…', clientSecret: '…' },
 * })
 * ```
 *
 * @publicApi
 */
@Module({
  providers: [
    {
      provide: MCP_AUTHORIZATION_SERVER_CONFIG,
      useFactory: (options: McpAuthorizationServerOptions) => resolveMcpAuthorizationServerOptions(options),
      inject: [MCP_AUTHORIZATION_SERVER_MODULE_OPTIONS],
    },
    {
      provide: McpAuthorizationStore,
      useFactory: (options: ResolvedMcpAuthorizationServerOptions) =>
        options.store ?? new InMemoryAuthorizationStore(options.maxStoredRecords),
      inject: [MCP_AUTHORIZATION_SERVER_CONFIG],
    },
    McpAuthorizationServer,
  ],
  exports: [McpAuthorizationServer, McpAuthorizationStore],
})
export class McpAuthorizationServerModule extends McpAuthorizationServerConfigurableModule {}
