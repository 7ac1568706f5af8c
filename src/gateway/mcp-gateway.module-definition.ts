import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpGatewayOptions } from './mcp-gateway.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpGatewayOptions()`.
 */
export const {
  ConfigurableModuleClass: McpGatewayConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_GATEWAY_MODULE_OPTIONS,
} = new ConfigurableModuleBuilder<McpGatewayOptions>({ moduleName: 'McpGateway' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpGatewayOptions')
  .build();

/** The resolved options ({@link ResolvedMcpGatewayOptions}). */
export const MCP_GATEWAY_CONFIG = Symbol.for('mocapi:gateway-config');

/**
 * Implemented by a `useClass` / `useExisting` options factory of `McpGatewayModule.forRootAsync`.
 *
 * @publicApi
 */
export interface McpGatewayOptionsFactory {
  createMcpGatewayOptions(): McpGatewayOptions | Promise<McpGatewayOptions>;
}
