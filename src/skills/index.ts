/**
 * `@mocapi/nestjs/skills`: Agent Skills over MCP (`io.modelcontextprotocol/skills`), the know-how a
 * model needs to use this server's tools, published and verified next to them. No dependency beyond
 * the core.
 */
export { McpSkillsModule } from './mcp-skills.module.js';
export type { McpSkillsConfigurableModule, McpSkillsOptionsFactory } from './mcp-skills.module-definition.js';
export { SKILL_LIMITS, type McpSkillsOptions } from './mcp-skills.options.js';
export { McpSkillCatalog, MCP_SKILLS_EXTENSION, type McpSkillCatalogChanges } from './mcp-skill-catalog.js';
export { McpSkill, type McpSkillContent, type McpSkillOptions } from './mcp-skill.decorator.js';
export type { McpSkillFileMap } from './skill-files.js';
export { McpSkillDefinitionError, type McpSkillEntry } from './skill-builder.js';
