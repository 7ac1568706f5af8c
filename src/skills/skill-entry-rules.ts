import type { FrontmatterMap } from './skill-frontmatter-parser.js';

/** The Agent Skills name rule: lowercase letters, digits and single hyphens, 1 to 64 characters. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Characters as a reader counts them (code points, not UTF-16 units). */
const lengthOf = (text: string): number => [...text].length;

/**
 * What is wrong with a skill's frontmatter under the extension's rules (the Agent Skills format),
 * for the skill published as `folderName`; empty when nothing is. Hosts refuse entries that break
 * them, so the server refuses them at startup instead.
 */
export function frontmatterProblems(frontmatter: FrontmatterMap, folderName: string): string[] {
  const problems: string[] = [];
  const { name, description, compatibility, metadata } = frontmatter;
  if (name === undefined) problems.push('the frontmatter has no `name`');
  else if (typeof name !== 'string' || name.length > 64 || !SKILL_NAME.test(name)) {
    problems.push(
      `the name ${JSON.stringify(name)} must be 1-64 lowercase letters, digits and single hyphens (e.g. book-a-table)`,
    );
  } else if (name !== folderName) {
    problems.push(`the name "${name}" must be the name of its folder ("${folderName}")`);
  }
  if (description === undefined) problems.push('the frontmatter has no `description`');
  else if (typeof description !== 'string' || description.trim() === '' || lengthOf(description) > 1024) {
    problems.push('the description must be a string of 1-1024 characters');
  }
  if (
    compatibility !== undefined &&
    (typeof compatibility !== 'string' || compatibility === '' || lengthOf(compatibility) > 500)
  ) {
    problems.push('`compatibility` must be a string of 1-500 characters');
  }
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' ||
      metadata === null ||
      Array.isArray(metadata) ||
      Object.values(metadata).some((value) => typeof value !== 'string'))
  ) {
    problems.push('`metadata` must map keys to strings');
  }
  return problems;
}
