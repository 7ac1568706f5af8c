import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpRedisOptions } from './mcp-redis.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpRedisOptions()`.
 */
export const { ConfigurableModuleClass: McpRedisConfigurableModule, MODULE_OPTIONS_TOKEN: MCP_REDIS_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<McpRedisOptions>({ moduleName: 'McpRedis' })
    .setClassMethodName('forRoot')
    .setFactoryMethodName('createMcpRedisOptions')
    .build();

/** The resolved options ({@link ResolvedMcpRedisOptions}). */
export const MCP_REDIS_CONFIG = Symbol.for('mocapi:redis-config');

/**
 * Implemented by a `useClass` / `useExisting` options factory of `McpRedisModule.forRootAsync`.
 *
 * @publicApi
 */
export interface McpRedisOptionsFactory {
  createMcpRedisOptions(): McpRedisOptions | Promise<McpRedisOptions>;
}
