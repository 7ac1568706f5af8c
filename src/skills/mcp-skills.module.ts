import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { INTEGRATION_METHOD_GROUP } from '../core/mcp.tokens.js';
import { McpSkillCatalog } from './mcp-skill-catalog.js';
import {
  MCP_SKILLS_CONFIG,
  MCP_SKILLS_MODULE_OPTIONS,
  McpSkillsConfigurableModule,
} from './mcp-skills.module-definition.js';
import { type McpSkillsOptions, resolveMcpSkillsOptions } from './mcp-skills.options.js';
import { SkillsMethods } from './skills.methods.js';

/**
 * Agent Skills over MCP (`io.modelcontextprotocol/skills`, SEP-2640): folders with a `SKILL.md`
 * that teach a model how to use this server's tools, published next to them. Import it next to
 * `McpModule`:
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpModule.forRoot({ name: 'bistro', version: '1.0.0' }),
 *     McpSkillsModule.forRoot({ directories: ['skills'] }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 *
 * It declares `capabilities.extensions["io.modelcontextprotocol/skills"]` in the `initialize` and
 * `server/discover` results, answers `skills/list`, `skills/get` and (with `directoryRead`)
 * `resources/directory/read` in both eras, and serves every skill file through `resources/read`
 * as `skill://…` resources. Startup fails, naming the file and the rule, on a skill whose
 * frontmatter is missing or breaks the extension's rules, or that is over the limits.
 *
 * @publicApi
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    {
      provide: MCP_SKILLS_CONFIG,
      useFactory: (options: McpSkillsOptions) => resolveMcpSkillsOptions(options),
      inject: [MCP_SKILLS_MODULE_OPTIONS],
    },
    McpSkillCatalog,
    SkillsMethods,
    { provide: INTEGRATION_METHOD_GROUP, useExisting: SkillsMethods },
  ],
  exports: [McpSkillCatalog, INTEGRATION_METHOD_GROUP],
})
export class McpSkillsModule extends McpSkillsConfigurableModule {}
