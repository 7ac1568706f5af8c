import { type INestApplication, Injectable, Scope, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { McpSkill, type McpSkillsOptions } from '../../src/skills/index.js';
import { skillsAppModule, skillsFolder, WALK_IN_FILES, WALK_IN_SKILL_MD } from './skills-app.fixture.js';

const frontmatter = (yaml: string): string => `---\n${yaml}\n---\n\nBody.\n`;

/** Starts (and closes) an application; resolves to the startup error's message. */
async function startupError(skills: McpSkillsOptions, providers: Type[] = []): Promise<string> {
  let app: INestApplication | undefined;
  try {
    app = await NestFactory.create(skillsAppModule({ skills, providers }), { logger: false, abortOnError: false });
    await app.init();
  } catch (error) {
    return (error as Error).message;
  } finally {
    await app?.close().catch(() => undefined);
  }
  throw new Error('the application started');
}

describe('invalid skills fail at startup, naming the file and the rule', () => {
  const folders: Array<{ remove(): Promise<void> }> = [];
  afterAll(() => Promise.all(folders.map((folder) => folder.remove())));
  async function folderWith(skill: string, files: Record<string, string | Uint8Array>): Promise<string> {
    const folder = await skillsFolder({ [skill]: files });
    folders.push(folder);
    return folder.root;
  }

  it.each([
    ['the frontmatter has no name', frontmatter('description: Seats guests.'), 'the frontmatter has no `name`'],
    [
      'the name breaks the rules',
      frontmatter('name: Seat_A_Walk_In\ndescription: Seats guests.'),
      'the name "Seat_A_Walk_In" must be 1-64 lowercase letters, digits and single hyphens (e.g. book-a-table)',
    ],
    [
      'the name is not the folder name',
      frontmatter('name: seat-guests\ndescription: Seats guests.'),
      'the name "seat-guests" must be the name of its folder ("seat-a-walk-in")',
    ],
    ['there is no description', frontmatter('name: seat-a-walk-in'), 'the frontmatter has no `description`'],
    [
      'metadata is not a map of strings',
      frontmatter('name: seat-a-walk-in\ndescription: Seats guests.\nmetadata:\n  tables: 12'),
      '`metadata` must map keys to strings',
    ],
    ['there is no frontmatter', '# Seat a walk-in\n', 'line 1: SKILL.md must begin with a "---" line'],
    [
      'the frontmatter uses YAML the subset refuses',
      frontmatter('name: &n seat-a-walk-in\ndescription: Seats guests.'),
      'line 2: a value starting with "&" is not supported here; quote the value',
    ],
    [
      'a plain value holds ": "',
      frontmatter('name: seat-a-walk-in\ndescription: Seats guests: walk-ins only.'),
      'line 3: a plain value cannot contain ": "; quote the value',
    ],
  ])('SKILL.md where %s', async (_case, manifest, rule) => {
    const root = await folderWith('seat-a-walk-in', { ...WALK_IN_FILES, 'SKILL.md': manifest });
    expect(await startupError({ directories: [root] })).toBe(
      `McpSkillsModule: ${join(root, 'seat-a-walk-in')}/SKILL.md: ${rule}`,
    );
  });

  it('a skill over the limits (files, then bytes)', async () => {
    const root = await folderWith('seat-a-walk-in', WALK_IN_FILES);
    const where = join(root, 'seat-a-walk-in');
    expect(await startupError({ directories: [root], limits: { files: 2 } })).toBe(
      `McpSkillsModule: ${where}: has 3 files; a skill may have at most 2 (limits.files)`,
    );
    const bytes = Object.values(WALK_IN_FILES).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(await startupError({ directories: [root], limits: { bytes: 100 } })).toBe(
      `McpSkillsModule: ${where}: has ${bytes} bytes of files; a skill may have at most 100 (limits.bytes)`,
    );
  });

  it('a folder without SKILL.md, or with skill.md', async () => {
    const none = await folderWith('seat-a-walk-in', { 'notes.md': '# Notes\n' });
    expect(await startupError({ directories: [none] })).toBe(
      `McpSkillsModule: ${join(none, 'seat-a-walk-in')}: has no SKILL.md`,
    );
    const cased = await folderWith('seat-a-walk-in', { 'skill.md': WALK_IN_SKILL_MD });
    expect(await startupError({ directories: [cased] })).toBe(
      `McpSkillsModule: ${join(cased, 'seat-a-walk-in')}: has skill.md; the file must be named SKILL.md`,
    );
  });

  it('a symbolic link inside a skill', async () => {
    const root = await folderWith('seat-a-walk-in', WALK_IN_FILES);
    await symlink('/etc/hostname', join(root, 'seat-a-walk-in/references/host.txt'));
    expect(await startupError({ directories: [root] })).toBe(
      `McpSkillsModule: ${join(root, 'seat-a-walk-in/references/host.txt')}: is a symbolic link or a special file, which skills do not follow; copy the file instead`,
    );
  });

  it('a folder that does not exist', async () => {
    expect(await startupError({ directories: ['/no/such/skills'] })).toBe(
      'McpSkillsModule: /no/such/skills: cannot be read (ENOENT)',
    );
  });

  it('an @McpSkill method that returns nothing useful, or on a request-scoped provider', async () => {
    @Injectable()
    class Broken {
      @McpSkill()
      nothing() {
        return 42;
      }
    }
    expect(await startupError({}, [Broken])).toBe(
      'McpSkillsModule: @McpSkill Broken.nothing(): must return the skill files ({ "SKILL.md": … }) or a folder path',
    );
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {
      @McpSkill()
      skill() {
        return { 'SKILL.md': WALK_IN_SKILL_MD };
      }
    }
    expect(await startupError({}, [PerRequest])).toBe(
      'McpSkillsModule: @McpSkill PerRequest.skill(): a skill must be published by a singleton provider (not request-scoped or transient)',
    );
  });

  it('a dynamic skill that returns no SKILL.md, or a folder path', async () => {
    @Injectable()
    class Dynamic {
      @McpSkill({ dynamic: true })
      folder() {
        return 'skills/specials';
      }
    }
    expect(await startupError({}, [Dynamic])).toBe(
      'McpSkillsModule: @McpSkill Dynamic.folder(): a dynamic skill must return its files, SKILL.md included',
    );
  });

  it('two skills with the same name', async () => {
    const root = await folderWith('seat-a-walk-in', WALK_IN_FILES);
    @Injectable()
    class Again {
      @McpSkill()
      walkIn() {
        return { 'SKILL.md': WALK_IN_SKILL_MD };
      }
    }
    expect(await startupError({ directories: [root] }, [Again])).toBe(
      'McpSkillsModule: skill://seat-a-walk-in/SKILL.md: is published twice (by a skills directory and Again.walkIn()); skill names must be unique',
    );
  });

  it.each([
    [
      { prefix: 'Bistro!' },
      'McpSkillsModule: prefix must be lowercase letters, digits, dots and hyphens (e.g. bistro)',
    ],
    [{ limits: { files: 0 } }, 'McpSkillsModule: limits.files must be a positive whole number'],
    [{ cache: { ttlMs: -1 } }, 'McpSkillsModule: cache.ttlMs must be a whole number of milliseconds >= 0'],
    [{ directories: 'skills' }, 'McpSkillsModule: directories must be an array of folder paths'],
  ])('wrong options: %j', async (options, message) => {
    expect(await startupError(options as McpSkillsOptions)).toBe(message);
  });
});
