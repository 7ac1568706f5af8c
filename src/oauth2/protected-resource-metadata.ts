import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost, MetadataScanner } from '@nestjs/core';
import { MCP_OAUTH2_CONFIG } from './mcp-oauth2.constants.js';
import type { McpOAuth2Config } from './mcp-oauth2.options.js';
import { getMcpScopes } from './mcp-scopes.decorator.js';

/**
 * The RFC 9728 protected resource metadata document of the MCP server.
 */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported: readonly ['header'];
  readonly resource_documentation?: string;
  readonly resource_name?: string;
}

/** Builds the document. `discoveredScopes` are the `@McpScopes` found at startup. */
export function buildProtectedResourceMetadata(
  config: McpOAuth2Config,
  discoveredScopes: readonly string[],
): ProtectedResourceMetadata {
  const scopes = (config.scopesSupported ?? [...new Set([...config.requiredScopes, ...discoveredScopes])]).filter(
    (scope) => scope !== 'offline_access',
  );
  return {
    resource: config.audience,
    authorization_servers: [...config.authorizationServers],
    ...(scopes.length > 0 ? { scopes_supported: scopes } : {}),
    bearer_methods_supported: ['header'],
    ...(config.resourceDocumentation === undefined ? {} : { resource_documentation: config.resourceDocumentation }),
    ...(config.resourceName === undefined ? {} : { resource_name: config.resourceName }),
  };
}

/**
 * Serves the metadata with GET at `/.well-known/oauth-protected-resource<path of the audience>`
 * and at `/.well-known/oauth-protected-resource`. The routes are registered on the HTTP adapter
 * rather than through a controller on purpose: RFC 9728 fixes them at the host root, so they
 * must escape a global prefix, the paths depend on options that may arrive asynchronously, and
 * global guards (an application's own auth) must not hide the document that bootstraps auth.
 */
@Injectable()
export class ProtectedResourceMetadataRoutes implements OnModuleInit {
  private readonly logger = new Logger('McpOAuth2');
  private document?: ProtectedResourceMetadata;

  constructor(
    @Inject(MCP_OAUTH2_CONFIG) private readonly config: McpOAuth2Config,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /** The document as served (built at module init). */
  get metadata(): ProtectedResourceMetadata {
    this.document ??= buildProtectedResourceMetadata(this.config, this.discoverScopes());
    return this.document;
  }

  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    const body = this.metadata;
    if (!adapter) return; // not an HTTP application (e.g. stdio only): nothing to serve
    for (const path of this.config.resourceMetadataPaths) {
      adapter.get(path, (_req: unknown, res: unknown) => {
        adapter.setHeader(res, 'Cache-Control', 'public, max-age=3600');
        adapter.setHeader(res, 'Access-Control-Allow-Origin', '*');
        adapter.reply(res, body, 200);
      });
    }
    this.logger.log(`Protected resource metadata at ${this.config.resourceMetadataPaths.join(', ')}`);
  }

  private discoverScopes(): string[] {
    const found = new Set<string>();
    for (const wrapper of this.discovery.getProviders()) {
      // Metadata lives on classes, so no instance is needed (request-scoped tools count too).
      const metatype = wrapper.metatype as Function | null | undefined;
      if (
        wrapper.isNotMetatype ||
        wrapper.isFactory ||
        typeof metatype !== 'function' ||
        typeof metatype.prototype !== 'object'
      )
        continue;
      for (const name of this.scanner.getAllMethodNames(metatype.prototype as object)) {
        for (const scope of getMcpScopes(metatype, name)) found.add(scope);
      }
    }
    return [...found].sort();
  }
}
