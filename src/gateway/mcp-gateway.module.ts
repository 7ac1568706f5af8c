import { Global, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpClientRegistry } from '../client/mcp-client.registry.js';
import { INTEGRATION_GATEWAY_HEALTH_PROBE } from '../core/mcp-health-probe.js';
import { McpServers } from '../mcp-servers.js';
import { McpGateway } from './mcp-gateway.js';
import {
  MCP_GATEWAY_CONFIG,
  MCP_GATEWAY_MODULE_OPTIONS,
  McpGatewayConfigurableModule,
} from './mcp-gateway.module-definition.js';
import {
  type McpGatewayOptions,
  resolveMcpGatewayOptions,
  type ResolvedMcpGatewayOptions,
} from './mcp-gateway.options.js';

/**
 * Puts other MCP servers behind one of this application's servers: each upstream's tools, prompts,
 * resources and resource templates are served as the application's own (`<prefix>_<name>`; resources
 * keep their URIs), through the whole pipeline (guards, scopes, rate limits, audit, telemetry), and
 * each call goes to the upstream through `McpClientModule`'s connection named `client`:
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpModule.forRoot({ name: 'front', version: '1.0.0', mrtr: { secrets: [process.env.MCP_SECRET!] } }),
 *     McpClientModule.forRoot({
 *       servers: {
 *         weather: {
 *           url: 'https://weather.example.com/mcp',
 *           clientOptions: { capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
 *         },
 *       },
 *     }),
 *     McpGatewayModule.forRoot({ upstreams: [{ client: 'weather', prefix: 'weather' }] }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 *
 * `forRootAsync({ imports, inject, useFactory })` (or `useClass` / `useExisting` with
 * `createMcpGatewayOptions()`) takes the options from a provider such as `ConfigService`; either
 * way, wrong options fail the application's startup with the same errors.
 *
 * Questions an upstream asks (its `input_required`, or a 2025-era upstream's pushed
 * `elicitation/create`) go to the downstream client through this server's own elicitation. With
 * an OpenTelemetry SDK registered, each request sent upstream has a CLIENT span (a child of the
 * call's span), whose trace context goes upstream in `params._meta`. See docs/composition.md.
 *
 * @publicApi
 */
// Global, like the integrations that fill a slot: McpHealthModule finds the probe anywhere.
@Global()
@Module({
  providers: [
    {
      provide: MCP_GATEWAY_CONFIG,
      useFactory: (options: McpGatewayOptions) => resolveMcpGatewayOptions(options),
      inject: [MCP_GATEWAY_MODULE_OPTIONS],
    },
    {
      provide: McpGateway,
      useFactory: (options: ResolvedMcpGatewayOptions, clients: McpClientRegistry, moduleRef: ModuleRef) =>
        new McpGateway(options, clients, new McpServers(moduleRef)),
      inject: [MCP_GATEWAY_CONFIG, McpClientRegistry, ModuleRef],
    },
    // For @mocapi/nestjs/terminus.
    {
      provide: INTEGRATION_GATEWAY_HEALTH_PROBE,
      useFactory: (gateway: McpGateway) => gateway.healthProbe(),
      inject: [McpGateway],
    },
  ],
  exports: [McpGateway, INTEGRATION_GATEWAY_HEALTH_PROBE],
})
export class McpGatewayModule extends McpGatewayConfigurableModule {}
