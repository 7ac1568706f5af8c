import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpTaskQueueOptions } from './mcp-task-queue.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpTaskQueueOptions()`.
 */
export const {
  ConfigurableModuleClass: McpTaskQueueConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_TASK_QUEUE_MODULE_OPTIONS,
} = new ConfigurableModuleBuilder<McpTaskQueueOptions>({ moduleName: 'McpTaskQueue' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpTaskQueueOptions')
  .build();

/** The resolved options ({@link ResolvedMcpTaskQueueOptions}). */
export const MCP_TASK_QUEUE_CONFIG = Symbol.for('mocapi:task-queue-config');

/**
 * Implemented by a `useClass` / `useExisting` options factory of `McpTaskQueueModule.forRootAsync`.
 *
 * @publicApi
 */
export interface McpTaskQueueOptionsFactory {
  createMcpTaskQueueOptions(): McpTaskQueueOptions | Promise<McpTaskQueueOptions>;
}
