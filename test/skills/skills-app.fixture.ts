import { type DynamicModule, Injectable, Module, type Type } from '@nestjs/common';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McpModule } from '../../src/index.js';
import { McpOAuth2Module, McpScopes } from '../../src/oauth2/index.js';
import { McpSkill, McpSkillsModule, type McpSkillsOptions } from '../../src/skills/index.js';

export const WALK_IN_SKILL_MD = `---
name: seat-a-walk-in
description: Seats guests who arrive without a booking.
compatibility: Needs the bistro server's find_tables tool
metadata:
  owner: front-of-house
---

# Seat a walk-in

Call find_tables for today, then see [the floor plan](references/floor.md).
`;

export const WALK_IN_FILES: Readonly<Record<string, string>> = {
  'SKILL.md': WALK_IN_SKILL_MD,
  'references/floor.md': '# Floor plan\n\nTables 1-6 by the window, 7-12 at the back.\n',
  'references/tables/sizes.csv': 'table,seats\n1,2\n2,4\n',
};

/** A skill only staff may see: built in code, hidden without the `staff` scope. */
export const TILL_SKILL_MD = `---
name: close-the-till
description: Closes the till at the end of the evening.
---

Count the cash, then print the day's report.
`;

@Injectable()
export class StaffSkills {
  @McpSkill()
  @McpScopes('staff')
  closeTheTill() {
    return { 'SKILL.md': TILL_SKILL_MD, 'checklist.txt': 'cash\ncards\nreport\n' };
  }
}

/** Writes `files` under a new temporary folder of skills, as `<root>/<skill>/<path>`. */
export async function skillsFolder(skills: Record<string, Readonly<Record<string, string | Uint8Array>>>) {
  const root = await mkdtemp(join(tmpdir(), 'mocapi-skills-'));
  for (const [skill, files] of Object.entries(skills)) {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(root, skill, path)), { recursive: true });
      await writeFile(join(root, skill, path), content);
    }
  }
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

export interface SkillsAppOptions {
  readonly skills: McpSkillsOptions;
  /** Protect the server with bearer tokens from this issuer, for this audience. */
  readonly oauth2?: { readonly issuer: string; readonly audience: string };
  readonly providers?: Type[];
  /** More modules, e.g. `McpRedisModule` for several nodes. */
  readonly imports?: DynamicModule[];
}

/** A server with skills only (no tool): what the Skills extension needs and nothing else. */
export function skillsAppModule(options: SkillsAppOptions): Type {
  const imports = [
    McpModule.forRoot({ name: 'skills-test', version: '1.0.0' }),
    McpSkillsModule.forRoot(options.skills),
    ...(options.oauth2 ? [McpOAuth2Module.forRoot(options.oauth2)] : []),
    ...(options.imports ?? []),
  ];
  @Module({ imports, providers: options.providers ?? [] })
  class SkillsAppModule {}
  return SkillsAppModule;
}

/** A skill whose files are generated per read: tonight's specials change during the evening. */
@Injectable()
export class SpecialsSkill {
  reads = 0;

  @McpSkill({ dynamic: true })
  specials() {
    this.reads++;
    return {
      'SKILL.md': `---\nname: tonights-specials\ndescription: What the kitchen serves tonight beyond the menu.\n---\n\nRead specials.json.\n`,
      'specials.json': JSON.stringify({ dishes: ['soupe du jour'], read: this.reads }),
    };
  }
}
