import { Inject, Injectable } from '@nestjs/common';
import { McpMethod } from '../protocol/mcp-methods.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import { MCP_METHOD_GROUPS, type McpMethodGroup, type MethodHandler } from '../calls/method-handler.js';
import { McpServerExtensions } from '../discovery/mcp-server-extensions.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

/** server/discover: versions, capabilities derived from what is registered, serverInfo, cache hints. */
@Injectable()
export class DiscoverMethods implements McpMethodGroup {
  constructor(
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
    @Inject(MCP_METHOD_GROUPS) private readonly groups: McpMethodGroup[],
    private readonly extensions: McpServerExtensions,
  ) {}

  enabled(): boolean {
    return true;
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.Discover]: () => ({
      supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
      capabilities: this.capabilities(),
      ...(this.options.instructions !== undefined && { instructions: this.options.instructions }),
    }),
  };
  readonly cacheable: readonly string[] = [McpMethod.Discover];

  /** The instructions the server gives clients (also answered by the 2025-era `initialize`). */
  get instructions(): string | undefined {
    return this.options.instructions;
  }

  capabilities(): ServerCapabilities {
    const capabilities: ServerCapabilities = {};
    for (const group of this.groups) if (group.enabled()) group.contribute?.(capabilities);
    // Integration modules' extensions (e.g. MCP Apps); the 2025-era initialize result is built
    // from this too, so they are declared in both eras.
    if (this.extensions.size > 0) capabilities.extensions = { ...capabilities.extensions, ...this.extensions.all() };
    return capabilities;
  }
}
