import type { DynamicModule } from '@nestjs/common';
import { McpAuthorizationServerModule } from '../../src/authorization-server/index.js';
import { McpOAuth2Module } from '../../src/oauth2/index.js';
import { McpRedisModule, RedisAuthorizationStore } from '../../src/redis/index.js';

/**
 * Sign-in for the staff server, when `MCP_AUTH_UPSTREAM_ISSUER` names the staff's identity
 * provider: the application's own authorization server (hosts register by CIMD or DCR; users sign
 * in upstream and allow the host on its consent page) issues the tokens `/mcp/staff` requires.
 * Configured from the environment:
 *
 * - `MCP_PUBLIC_URL`: the application's external origin (the issuer), e.g. https://bistro.example.com
 * - `MCP_AUTH_UPSTREAM_ISSUER`, `MCP_AUTH_UPSTREAM_CLIENT_ID`, `MCP_AUTH_UPSTREAM_CLIENT_SECRET`: the
 *   application's registration at the identity provider, whose redirect URI is
 *   `${MCP_PUBLIC_URL}/oauth/callback`
 * - `MCP_AUTH_ALLOW_PRIVATE_CLIENT_METADATA=1`: fetch client metadata documents from private and
 *   loopback addresses (development only)
 * - several nodes: `MCP_AUTH_COOKIE_KEYS` (comma-separated) and `MCP_AUTH_SIGNING_JWKS` (a private
 *   JWKS, JSON), the same on every node, and `MCP_REDIS_URL`, whose Redis then keeps the sign-ins
 *   (and the MCP servers' shared state) so any node finishes a sign-in another started
 *
 * Without `MCP_AUTH_UPSTREAM_ISSUER`, no module: the staff server is open as before.
 */
export function staffSignIn(env: NodeJS.ProcessEnv = process.env): DynamicModule[] {
  const upstream = env['MCP_AUTH_UPSTREAM_ISSUER'];
  if (!upstream) return [];
  const origin = required(env, 'MCP_PUBLIC_URL').replace(/\/+$/, '');
  const staff = `${origin}/mcp/staff`;
  const options = {
    issuer: origin,
    resources: [staff],
    scopes: ['mcp:tools'],
    upstream: {
      issuer: upstream,
      clientId: required(env, 'MCP_AUTH_UPSTREAM_CLIENT_ID'),
      clientSecret: required(env, 'MCP_AUTH_UPSTREAM_CLIENT_SECRET'),
    },
    clientMetadataDocuments: { allowPrivateAddresses: env['MCP_AUTH_ALLOW_PRIVATE_CLIENT_METADATA'] === '1' },
    ...(env['MCP_AUTH_COOKIE_KEYS'] && { cookieKeys: env['MCP_AUTH_COOKIE_KEYS'].split(',').filter(Boolean) }),
    ...(env['MCP_AUTH_SIGNING_JWKS'] && { signingKeys: JSON.parse(env['MCP_AUTH_SIGNING_JWKS']) as { keys: [] } }),
  };
  const redis = env['MCP_REDIS_URL'];
  return [
    ...(redis
      ? [
          McpRedisModule.forRoot({ connection: redis }),
          McpAuthorizationServerModule.forRootAsync({
            inject: [RedisAuthorizationStore],
            useFactory: (store: RedisAuthorizationStore) => ({ ...options, store }),
          }),
        ]
      : [McpAuthorizationServerModule.forRoot(options)]),
    McpOAuth2Module.forRoot({ issuer: origin, audience: staff, requiredScopes: ['mcp:tools'] }),
  ];
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} must be set when MCP_AUTH_UPSTREAM_ISSUER is`);
  return value;
}
