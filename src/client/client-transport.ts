import {
  StreamableHTTPClientTransport,
  type AuthProvider,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ClientCredentialsAuth } from './client-credentials-auth.js';
import type { McpClientAuth, ResolvedMcpClientServer } from './mcp-client.options.js';
import { retryingFetch } from './retrying-fetch.js';
import { sizeBoundedFetch } from './size-bounded-fetch.js';
import { TokenExchangeAuth } from './token-exchange-auth.js';

/** A fresh transport for one connection to the server: Streamable HTTP or a child process. */
export function clientTransport(
  server: ResolvedMcpClientServer,
  auth: AuthProvider | OAuthClientProvider | undefined,
): Transport {
  if (server.stdio) {
    return new StdioClientTransport({ ...server.stdio, maxBufferSize: server.maxResponseBytes });
  }
  return new StreamableHTTPClientTransport(server.url!, {
    fetch: sizeBoundedFetch(server.name, server.maxResponseBytes, retryingFetch(server)),
    ...(auth && { authProvider: auth }),
    ...(Object.keys(server.headers).length > 0 && { requestInit: { headers: server.headers } }),
  });
}

/** The official client's auth provider for the server's `auth` option; one per server, shared by its connections. */
export function clientAuth(server: ResolvedMcpClientServer): AuthProvider | OAuthClientProvider | undefined {
  const auth: McpClientAuth | undefined = server.auth;
  if (!auth) return undefined;
  if ('provider' in auth) return auth.provider;
  if ('clientCredentials' in auth) {
    const resource = auth.clientCredentials.resource ?? server.url!.href;
    return new ClientCredentialsAuth(server.name, auth.clientCredentials, resource, server.timeoutMs);
  }
  if ('tokenExchange' in auth) {
    const resource = auth.tokenExchange.resource ?? server.url!.href;
    return new TokenExchangeAuth(server.name, auth.tokenExchange, resource, server.timeoutMs);
  }
  const { token } = auth;
  return { token: async () => (typeof token === 'string' ? token : await token()) };
}
