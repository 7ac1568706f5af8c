import type { AuthProvider } from '@modelcontextprotocol/client';
import type { McpClientTokenExchange } from './mcp-client.options.js';
import { McpClientError } from './mcp-client.error.js';
import { requestToken, type IssuedToken } from './token-endpoint.js';

const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/** Exchanged tokens kept at most (the oldest goes first). */
const MAX_CACHED = 1000;

/**
 * Token exchange (RFC 8693) as the official client's `AuthProvider`: before every request it asks
 * the application for the caller's token (`subjectToken()`) and sends, in its place, a token the
 * authorization server issued for this server in exchange, cached per caller until shortly before
 * it expires. The caller's own token never reaches the server.
 */
export class TokenExchangeAuth implements AuthProvider {
  private readonly cached = new Map<string, IssuedToken>();
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly server: string,
    private readonly exchange: McpClientTokenExchange,
    private readonly resource: string,
    private readonly timeoutMs: number,
  ) {}

  async token(): Promise<string> {
    const subject = await this.subject();
    const cached = this.cached.get(subject);
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    let pending = this.pending.get(subject);
    if (!pending) {
      pending = this.request(subject).finally(() => this.pending.delete(subject));
      this.pending.set(subject, pending);
    }
    return pending;
  }

  async onUnauthorized(): Promise<void> {
    this.cached.delete(await this.subject());
  }

  private async subject(): Promise<string> {
    const subject = await this.exchange.subjectToken();
    if (typeof subject !== 'string' || subject === '') {
      throw new McpClientError(this.server, 'unauthorized', 'no caller token to exchange (subjectToken() gave none)');
    }
    return subject;
  }

  private async request(subject: string): Promise<string> {
    const params: Record<string, string> = {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: subject,
      subject_token_type: this.exchange.subjectTokenType ?? ACCESS_TOKEN_TYPE,
      requested_token_type: ACCESS_TOKEN_TYPE,
      resource: this.resource,
    };
    if (this.exchange.audience) params['audience'] = this.exchange.audience;
    if (this.exchange.scope) params['scope'] = this.exchange.scope;
    const issued = await requestToken(this.server, this.exchange, params, this.timeoutMs);
    this.cached.delete(subject);
    if (this.cached.size >= MAX_CACHED) this.cached.delete(this.cached.keys().next().value!);
    this.cached.set(subject, issued);
    return issued.token;
  }
}
