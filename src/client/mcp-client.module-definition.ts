import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpClientOptions } from './mcp-client.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpClientOptions()`. Extras: `isGlobal`
 * (default true) and, for `forRootAsync`, `clients`: the server names `@InjectMcpClient` serves.
 */
export const {
  ConfigurableModuleClass: McpClientConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_CLIENT_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_CLIENT_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_CLIENT_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpClientOptions>({ moduleName: 'McpClient' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpClientOptions')
  .setExtras({ isGlobal: true, clients: [] as string[] }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();

/**
 * Implemented by a `useClass` / `useExisting` options factory of `McpClientModule.forRootAsync`.
 *
 * @publicApi
 */
export interface McpClientOptionsFactory {
  createMcpClientOptions(): McpClientOptions | Promise<McpClientOptions>;
}
