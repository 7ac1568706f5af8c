import type { Account } from 'oidc-provider';
import type { McpAuthorizationStore } from './mcp-authorization.store.js';

/** The claims kept of a user who signed in upstream: what the tokens and consent page say about them. */
export interface UpstreamUser {
  /** The upstream's `sub`: the subject of the tokens this server issues. */
  readonly sub: string;
  /** The upstream issuer that vouched for it. */
  readonly issuer: string;
  readonly name?: string;
  readonly email?: string;
}

const MODEL = 'UpstreamAccount';

/** The users who signed in through the upstream IdP, by their upstream `sub`, kept in the store. */
export class UpstreamAccounts {
  constructor(
    private readonly store: McpAuthorizationStore,
    private readonly ttlSeconds: number,
  ) {}

  async remember(user: UpstreamUser): Promise<void> {
    await this.store.upsert(MODEL, user.sub, { ...user }, this.ttlSeconds);
  }

  /** oidc-provider's `findAccount`: the account, or undefined for a user never seen (or forgotten). */
  async find(sub: string): Promise<Account | undefined> {
    const user = (await this.store.find(MODEL, sub)) as UpstreamUser | undefined;
    if (!user) return undefined;
    return {
      accountId: sub,
      claims: () => ({
        sub,
        ...(user.name !== undefined && { name: user.name }),
        ...(user.email !== undefined && { email: user.email }),
      }),
    };
  }
}
