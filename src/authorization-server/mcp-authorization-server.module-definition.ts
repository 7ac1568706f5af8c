import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpAuthorizationServerOptions } from './mcp-authorization-server.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpAuthorizationServerOptions()`.
 */
export const {
  ConfigurableModuleClass: McpAuthorizationServerConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_AUTHORIZATION_SERVER_MODULE_OPTIONS,
} = new ConfigurableModuleBuilder<McpAuthorizationServerOptions>({ moduleName: 'McpAuthorizationServer' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpAuthorizationServerOptions')
  .build();

/** The options after validation. */
export const MCP_AUTHORIZATION_SERVER_CONFIG = Symbol.for('mocapi:authorization-server:config');

/** Implemented by a `useClass` / `useExisting` options factory of `McpAuthorizationServerModule.forRootAsync`. */
export interface McpAuthorizationServerOptionsFactory {
  createMcpAuthorizationServerOptions(): McpAuthorizationServerOptions | Promise<McpAuthorizationServerOptions>;
}
