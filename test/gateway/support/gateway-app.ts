import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import type { ClientOptions } from '@modelcontextprotocol/client';
import { McpClientModule, type McpClientServerOptions } from '../../../src/client/index.js';
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

/** The client module's server `ref`: the upstream, spoken to in `era`, no retries, 5 s unless `client` says otherwise. */
function upstreamServer(url: string, era: UpstreamEra, client: McpClientServerOptions = {}): McpClientServerOptions {
  return { url, timeoutMs: 5000, retries: 0, clientOptions: upstreamClientOptions(era), ...client };
}

const gatewayServer = (): DynamicModule =>
  McpModule.forRoot({ name: 'gateway', version: '1.0.0', mrtr: { secrets: [GATEWAY_SECRET] } });

/** A gateway application: one MCP server at /mcp with the upstream mounted under `ref`. */
export function gatewayModule(
  upstreamUrl: string,
  era: UpstreamEra,
  upstream: Partial<McpGatewayUpstream> = {},
  client: McpClientServerOptions = {},
): DynamicModule {
  @Module({})
  class GatewayAppModule {}
  return {
    module: GatewayAppModule,
    imports: [
      gatewayServer(),
      McpClientModule.forRoot({ servers: { ref: upstreamServer(upstreamUrl, era, client) } }),
      McpGatewayModule.forRoot({ upstreams: [{ client: 'ref', prefix: 'ref', ...upstream }], checkIntervalMs: 200 }),
    ],
  };
}

/**
 * The same gateway configured as an application reads its environment: the upstream's URL and
 * prefix from `ConfigService`, through `McpClientModule.forRootAsync` and `McpGatewayModule.forRootAsync`.
 */
export function configuredGatewayModule(upstreamUrl: string, era: UpstreamEra, prefix: string): DynamicModule {
  @Module({})
  class ConfiguredGatewayAppModule {}
  return {
    module: ConfiguredGatewayAppModule,
    imports: [
      ConfigModule.forRoot({
        isGlobal: true,
        ignoreEnvFile: true,
        load: [() => ({ UPSTREAM_URL: upstreamUrl, UPSTREAM_PREFIX: prefix })],
      }),
      gatewayServer(),
      McpClientModule.forRootAsync({
        inject: [ConfigService],
        useFactory: (config: ConfigService) => ({
          servers: { ref: upstreamServer(config.getOrThrow<string>('UPSTREAM_URL'), era) },
        }),
      }),
      McpGatewayModule.forRootAsync({
        inject: [ConfigService],
        useFactory: (config: ConfigService) => ({
          upstreams: [{ client: 'ref', prefix: config.getOrThrow<string>('UPSTREAM_PREFIX') }],
          checkIntervalMs: 200,
        }),
      }),
    ],
  };
}
