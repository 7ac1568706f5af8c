import type { BuiltSkill, SkillDirectoryChild } from './skill-builder.js';
import type { SkillFile } from './skill-files.js';

/** Who may see a skill: the provider method that published it (its `@McpScopes`), or everyone. */
export interface SkillOwner {
  readonly instance: object;
  readonly methodName: string;
  /** Its files are generated per read (`@McpSkill({ dynamic: true })`). */
  readonly dynamic: boolean;
}

export interface CatalogSkill {
  readonly skill: BuiltSkill;
  readonly owner: SkillOwner | undefined;
}

/** One immutable state of the catalog: a reload builds a new one and swaps it in at once. */
export class SkillCatalogSnapshot {
  /** Sorted by URI, so pages are the same on every node. */
  readonly skills: readonly CatalogSkill[];
  private readonly byUri = new Map<string, CatalogSkill>();
  private readonly directories = new Map<string, { owner: CatalogSkill; children: readonly SkillDirectoryChild[] }>();
  readonly files = new Map<string, { owner: CatalogSkill; file: SkillFile }>();

  constructor(skills: readonly CatalogSkill[]) {
    this.skills = [...skills].sort((a, b) => (a.skill.entry.uri < b.skill.entry.uri ? -1 : 1));
    for (const item of this.skills) {
      this.byUri.set(item.skill.entry.uri, item);
      for (const file of item.skill.files) this.files.set(file.uri, { owner: item, file });
      for (const [uri, children] of item.skill.directories) this.directories.set(uri, { owner: item, children });
    }
  }

  /** The skill whose `SKILL.md` is at `uri` (any spelling that parses to it). */
  skill(uri: string): CatalogSkill | undefined {
    return this.byUri.get(canonical(uri));
  }

  directory(uri: string): { owner: CatalogSkill; children: readonly SkillDirectoryChild[] } | undefined {
    return this.directories.get(canonical(uri).replace(/\/$/, ''));
  }
}

function canonical(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}
