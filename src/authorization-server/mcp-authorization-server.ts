import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { exportJWK, generateKeyPair } from 'jose';
import { errors, Provider } from 'oidc-provider';
import { AuthorizationServerHandler } from './authorization-server-handler.js';
import { mountOnExpress, mountOnFastify } from './authorization-server-mount.js';
import { McpAuthorizationStore } from './mcp-authorization.store.js';
import { MCP_AUTHORIZATION_SERVER_CONFIG } from './mcp-authorization-server.module-definition.js';
import type { ResolvedMcpAuthorizationServerOptions } from './mcp-authorization-server.options.js';
import { defaultScopes, providerConfiguration } from './oidc-provider-configuration.js';
import { UpstreamAccounts } from './upstream-accounts.js';
import { UpstreamSignIn } from './upstream-sign-in.js';

/**
 * The authorization server of the application: oidc-provider configured for MCP hosts, with the
 * sign-in steps of {@link AuthorizationServerHandler}, mounted on the application's HTTP adapter
 * (Express or Fastify) when the module initialises.
 */
@Injectable()
export class McpAuthorizationServer implements OnModuleInit {
  private readonly logger = new Logger('McpAuthorizationServer');

  /** @internal Nest builds it. */
  constructor(
    @Inject(MCP_AUTHORIZATION_SERVER_CONFIG) private readonly options: ResolvedMcpAuthorizationServerOptions,
    private readonly store: McpAuthorizationStore,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** The issuer (the application's origin) tokens name in `iss`. */
  get issuer(): string {
    return this.options.issuer;
  }

  async onModuleInit(): Promise<void> {
    const accounts = new UpstreamAccounts(this.store, this.options.ttl.refreshToken);
    const provider = new Provider(
      this.options.issuer,
      providerConfiguration(this.options, {
        store: this.store,
        accounts,
        signingKeys: (this.options.signingKeys as { keys: Record<string, unknown>[] }) ?? (await generatedKeys()),
        invalidTarget: (message) => new errors.InvalidTarget(message),
      }),
    );
    // Koa's switch: the scheme and host of the endpoints from the proxy's X-Forwarded-* headers.
    provider.proxy = this.options.trustProxy;
    defaultScopes(provider, this.options.scopes);
    const handler = new AuthorizationServerHandler(
      provider,
      new UpstreamSignIn(this.options, this.store),
      accounts,
      this.options,
    );
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return;
    const type = adapter.getType();
    if (type === 'express') mountOnExpress(adapter.getInstance(), handler);
    else if (type === 'fastify') mountOnFastify(adapter.getInstance(), handler);
    else {
      this.logger.warn(
        `Authorization server not mounted: HTTP adapter "${type}" is not supported (use Express or Fastify)`,
      );
      return;
    }
    this.logger.log(`Authorization server ${this.options.issuer} (upstream ${this.options.upstream.issuer})`);
  }
}

/** A signing key for this process only (tokens die with it): for development and tests. */
async function generatedKeys(): Promise<{ keys: Record<string, unknown>[] }> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig', kid: 'mcp-auth-es256' }] };
}
