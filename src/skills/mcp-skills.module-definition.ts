import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpSkillsOptions } from './mcp-skills.options.js';

/**
 * `forRoot(options)` and `forRootAsync({ imports, useFactory, inject } | { useClass } | { useExisting })`;
 * a `useClass`/`useExisting` factory implements `createMcpSkillsOptions()`.
 */
export const { ConfigurableModuleClass: McpSkillsConfigurableModule, MODULE_OPTIONS_TOKEN: MCP_SKILLS_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<McpSkillsOptions>({ moduleName: 'McpSkills' })
    .setClassMethodName('forRoot')
    .setFactoryMethodName('createMcpSkillsOptions')
    .build();

/** The resolved options ({@link ResolvedMcpSkillsOptions}). */
export const MCP_SKILLS_CONFIG = Symbol.for('mocapi:skills-config');

/**
 * Implemented by a `useClass` / `useExisting` options factory of `McpSkillsModule.forRootAsync`.
 *
 * @publicApi
 */
export interface McpSkillsOptionsFactory {
  createMcpSkillsOptions(): McpSkillsOptions | Promise<McpSkillsOptions>;
}
