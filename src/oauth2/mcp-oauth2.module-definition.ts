import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpOAuth2Options } from './mcp-oauth2.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpOAuth2Options()`.
 */
export const {
  ConfigurableModuleClass: McpOAuth2ConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_OAUTH2_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_OAUTH2_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_OAUTH2_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpOAuth2Options>({ moduleName: 'McpOAuth2' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpOAuth2Options')
  .build();

/** Implemented by a `useClass` / `useExisting` options factory of `McpOAuth2Module.forRootAsync`. */
export interface McpOAuth2OptionsFactory {
  createMcpOAuth2Options(): McpOAuth2Options | Promise<McpOAuth2Options>;
}
