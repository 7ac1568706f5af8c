import { SetMetadata } from '@nestjs/common';
import type { McpSkillFileMap } from './skill-files.js';

/** Reflect metadata key of `@McpSkill`. */
export const MCP_SKILL_METADATA = 'mocapi:skills:skill';

/**
 * What an `@McpSkill` method returns: the skill's files by path under its folder (`SKILL.md` and
 * the files it references; strings are UTF-8), or the path of a skill folder on disk.
 *
 * @publicApi
 */
export type McpSkillContent = McpSkillFileMap | string;

/**
 * Options of `@McpSkill`.
 *
 * @publicApi
 */
export interface McpSkillOptions {
  /**
   * The files change while the server runs (generated per read): the entry lists `"dynamic"`
   * instead of digests, and every read calls the method again. Its `SKILL.md` frontmatter is read
   * at startup and on reload, and must not change in between (hosts check it against the entry).
   * Default false: the files are hashed once and served from memory.
   */
  dynamic?: boolean;
}

/**
 * Publishes the skill a provider method returns ({@link McpSkillContent}), built in code or read
 * from a folder. The method is called once at startup and again on each `McpSkillCatalog.reload()`;
 * its files are hashed and served from memory until the next reload (or, with `dynamic`, read anew
 * each time). The skill is named by its frontmatter. `@McpScopes` on the method or its class hides
 * the skill (its entry and its files) from callers without them, as it hides tools. The provider
 * must be a singleton.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class StaffSkills {
 *   @McpSkill()
 *   @McpScopes('staff')
 *   closeTheTill() {
 *     return 'skills-staff/close-the-till';
 *   }
 * }
 * ```
 * @publicApi
 */
export const McpSkill = (options: McpSkillOptions = {}): MethodDecorator =>
  SetMetadata(MCP_SKILL_METADATA, { dynamic: options.dynamic === true });
