import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from './mcp.options.js';

/** Whether this server is the application's global one (`isGlobal`, default true). */
export const MCP_SERVER_IS_GLOBAL = Symbol.for('mocapi:server-is-global');

/** Generates forRoot/forRootAsync; `isGlobal` (default true) makes ElicitationContext injectable everywhere. */
export const {
  ConfigurableModuleClass: McpConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpOptions')
  .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    providers: [...(definition.providers ?? []), { provide: MCP_SERVER_IS_GLOBAL, useValue: extras.isGlobal }],
  }))
  .build();

/** The options after defaults and validation (see `resolveMcpOptions`). */
export const MCP_OPTIONS = Symbol.for('mocapi:resolved-options');
