import { Module, type DynamicModule } from '@nestjs/common';
import type { ClientOptions } from '@modelcontextprotocol/client';
import { McpClientModule } from '../../../src/client/index.js';
import { McpGatewayModule, type McpGatewayUpstream } from '../../../src/gateway/index.js';
import { McpModule } from '../../../src/index.js';

export const GATEWAY_SECRET = 'gateway-e2e gateway secret 0123456789abcdef01';

/** How the gateway's connection to the upstream speaks: the client's default (2025 era) or 2026-07-28. */
export type UpstreamEra = 'legacy' | 'modern';

export function upstreamClientOptions(era: UpstreamEra): ClientOptions {
  return {
    capabilities: { elicitation: { form: {} } },
    ...(era === 'modern' && {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    }),
  } as ClientOptions;
}

/** A gateway application: one MCP server at /mcp with the upstream mounted under `ref`. */
export function gatewayModule(
  upstreamUrl: string,
  era: UpstreamEra,
  upstream: Partial<McpGatewayUpstream> = {},
  timeoutMs = 5000,
): DynamicModule {
  @Module({})
  class GatewayAppModule {}
  return {
    module: GatewayAppModule,
    imports: [
      McpModule.forRoot({ name: 'gateway', version: '1.0.0', mrtr: { secrets: [GATEWAY_SECRET] } }),
      McpClientModule.forRoot({
        servers: { ref: { url: upstreamUrl, timeoutMs, retries: 0, clientOptions: upstreamClientOptions(era) } },
      }),
      McpGatewayModule.forRoot({ upstreams: [{ client: 'ref', prefix: 'ref', ...upstream }], checkIntervalMs: 200 }),
    ],
  };
}
