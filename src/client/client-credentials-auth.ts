import type { AuthProvider } from '@modelcontextprotocol/client';
import type { McpClientCredentials } from './mcp-client.options.js';
import { requestToken, type IssuedToken } from './token-endpoint.js';

/**
 * The client-credentials grant as the official client's `AuthProvider`: one token for the
 * resource, cached until shortly before it expires, one request to the token endpoint at a time,
 * and dropped when the server answers 401 (the client then asks for a fresh one and retries once).
 */
export class ClientCredentialsAuth implements AuthProvider {
  private cached?: IssuedToken;
  private pending?: Promise<string>;

  constructor(
    private readonly server: string,
    private readonly credentials: McpClientCredentials,
    private readonly resource: string,
    private readonly timeoutMs: number,
  ) {}

  async token(): Promise<string> {
    if (this.cached && Date.now() < this.cached.refreshAt) return this.cached.token;
    this.pending ??= this.request().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  async onUnauthorized(): Promise<void> {
    this.cached = undefined;
  }

  private async request(): Promise<string> {
    const params: Record<string, string> = { grant_type: 'client_credentials', resource: this.resource };
    if (this.credentials.scope) params['scope'] = this.credentials.scope;
    this.cached = await requestToken(this.server, this.credentials, params, this.timeoutMs);
    return this.cached.token;
  }
}
