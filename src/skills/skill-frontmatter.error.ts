/** A frontmatter the subset cannot read; `line` counts from the file's first line. */
export class SkillFrontmatterError extends Error {
  constructor(
    readonly reason: string,
    readonly line?: number,
  ) {
    super(line === undefined ? reason : `line ${line}: ${reason}`);
    this.name = 'SkillFrontmatterError';
  }
}
