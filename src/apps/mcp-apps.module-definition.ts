import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpAppsOptions } from './mcp-apps.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpAppsOptions()`.
 */
export const { ConfigurableModuleClass: McpAppsConfigurableModule, MODULE_OPTIONS_TOKEN: MCP_APPS_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<McpAppsOptions>({ moduleName: 'McpApps' })
    .setClassMethodName('forRoot')
    .setFactoryMethodName('createMcpAppsOptions')
    .build();

/** The resolved options ({@link ResolvedMcpAppsOptions}). */
export const MCP_APPS_CONFIG = Symbol.for('mocapi:apps-config');

/**
 * Implemented by a `useClass` / `useExisting` options factory of `McpAppsModule.forRootAsync`.
 *
 * @publicApi
 */
export interface McpAppsOptionsFactory {
  createMcpAppsOptions(): McpAppsOptions | Promise<McpAppsOptions>;
}
