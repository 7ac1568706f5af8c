import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { getMcpClientToken } from './inject-mcp-client.decorator.js';
import type { McpClientConnection } from './mcp-client-connection.js';
import {
  MCP_CLIENT_ASYNC_OPTIONS_TYPE,
  MCP_CLIENT_MODULE_OPTIONS,
  MCP_CLIENT_OPTIONS_TYPE,
  McpClientConfigurableModule,
} from './mcp-client.module-definition.js';
import { resolveMcpClientOptions, type McpClientOptions } from './mcp-client.options.js';
import { McpClientRegistry } from './mcp-client.registry.js';

const registry: Provider = {
  provide: McpClientRegistry,
  useFactory: (options: McpClientOptions) => new McpClientRegistry(resolveMcpClientOptions(options)),
  inject: [MCP_CLIENT_MODULE_OPTIONS],
};

/** The module with one provider per name, the connection `@InjectMcpClient(name)` injects. */
function withConnections(module: DynamicModule, names: readonly string[]): DynamicModule {
  const connections: Provider[] = [...new Set(names)].map((name) => ({
    provide: getMcpClientToken(name),
    useFactory: (clients: McpClientRegistry): McpClientConnection => clients.get(name),
    inject: [McpClientRegistry],
  }));
  return {
    ...module,
    providers: [...(module.providers ?? []), ...connections],
    exports: [
      ...(module.exports ?? []),
      McpClientRegistry,
      ...connections.map((p) => (p as { provide: string }).provide),
    ],
  };
}

/**
 * Calls other MCP servers from this application's services, through the official
 * `@modelcontextprotocol/client` (an optional peer):
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpClientModule.forRoot({
 *       servers: {
 *         weather: { url: 'https://weather.example.com/mcp', auth: { token: process.env.WEATHER_TOKEN! } },
 *       },
 *     }),
 *   ],
 *   providers: [ForecastService],
 * })
 * export class AppModule {}
 * ```
 *
 * Each server gets an {@link McpClientConnection} (`@InjectMcpClient('weather')`, or
 * {@link McpClientRegistry}), which connects on first use, reuses its connection, retries the
 * transient error (HTTP 503) a bounded number of times, bounds each request by `timeoutMs`, and is
 * closed when the application shuts down. The module is global unless `isGlobal: false`.
 *
 * @publicApi
 */
@Module({ providers: [registry], exports: [McpClientRegistry] })
export class McpClientModule extends McpClientConfigurableModule {
  static override forRoot(options: typeof MCP_CLIENT_OPTIONS_TYPE): DynamicModule {
    return withConnections(super.forRoot(options), Object.keys(options.servers ?? {}));
  }

  static override forRootAsync(options: typeof MCP_CLIENT_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withConnections(super.forRootAsync(options), options.clients ?? []);
  }
}
