import type { Client } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpSkillCatalog } from '../../src/skills/index.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { openListen, type SseStream } from '../support/sse-stream.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { skillsAppModule, skillsFolder, WALK_IN_FILES, WALK_IN_SKILL_MD } from './skills-app.fixture.js';

const FLOOR = 'skill://seat-a-walk-in/references/floor.md';
const OLD_FLOOR = WALK_IN_FILES['references/floor.md']!;
const NEW_FLOOR = '# Floor plan\n\nTables 1-8 by the window since the works, 9-12 at the back.\n';

const ERAS: Array<{ era: string; connect: (url: string) => Promise<Client> }> = [
  { era: '2025-11-25 (the client default)', connect: async (url) => (await connectLegacyClient(url)).client },
  { era: '2026-07-28 (pinned)', connect: (url) => connectOfficialClient(url) },
];

/** A listed skill's files (skills from folders are never "dynamic"). */
const filesOf = (skill: Skill) => skill.resources as Exclude<Skill['resources'], 'dynamic'>;

function listen(url: string): Promise<SseStream> {
  return openListen(url, 'skills-listen', { resourcesListChanged: true, resourceSubscriptions: [FLOOR] });
}

describe.each(ADAPTERS)('a skill folder changed on disk after startup, on %s', (adapter) => {
  describe.each(ERAS)('$era', ({ connect }) => {
    let folder: Awaited<ReturnType<typeof skillsFolder>>;
    let server: RunningApp;
    let client: Client;
    let skills: SkillsClient;
    beforeEach(async () => {
      folder = await skillsFolder({ 'seat-a-walk-in': WALK_IN_FILES });
      server = await startApp(skillsAppModule({ skills: { directories: [folder.root] } }), adapter);
      client = await connect(server.url);
      skills = new SkillsClient(client);
    });
    afterEach(async () => {
      await client.close();
      await server.close();
      await folder.remove();
    });

    it('without reload, the bytes read at startup are served and verify against the entry', async () => {
      const {
        skills: [before],
      } = await skills.list();
      await writeFile(join(folder.root, 'seat-a-walk-in/references/floor.md'), NEW_FLOOR);
      const {
        skills: [listed],
      } = await skills.list();
      expect(listed).toEqual(before);
      const read = await skills.read(listed!, 'references/floor.md');
      expect(read).toMatchObject({ verified: true, text: OLD_FLOOR });
    });

    it('reload() gives a new entry and a change notice; the new bytes verify, the old entry no longer does', async () => {
      const {
        skills: [before],
      } = await skills.list();
      const stream = await listen(server.url);
      try {
        await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
        await writeFile(join(folder.root, 'seat-a-walk-in/references/floor.md'), NEW_FLOOR);
        const changes = await server.app.get(McpSkillCatalog).reload();
        expect(changes).toEqual({ added: [], removed: [], changed: ['skill://seat-a-walk-in/SKILL.md'] });
        await stream.waitFor((m) => m.method === 'notifications/resources/list_changed');
        const updated = await stream.waitFor((m) => m.method === 'notifications/resources/updated');
        expect(updated.params.uri).toBe(FLOOR);

        const {
          skills: [after],
        } = await skills.list();
        expect(filesOf(after!).find((file) => file.uri === FLOOR)).toEqual({
          uri: FLOOR,
          digest: expect.any(String),
          size: Buffer.byteLength(NEW_FLOOR),
        });
        expect(after!.resources).not.toEqual(before!.resources);
        expect(await skills.read(after!, 'references/floor.md')).toMatchObject({ verified: true, text: NEW_FLOOR });
        await expect(skills.read(before!, 'references/floor.md')).rejects.toBeInstanceOf(SkillVerificationError);
        // SKILL.md itself did not change: the old and new entries agree on it.
        expect((await skills.read(after!)).verified).toBe(true);
      } finally {
        stream.close();
      }
    });

    it('a reload that meets an invalid skill rejects naming the file, and the old catalog keeps serving', async () => {
      await writeFile(
        join(folder.root, 'seat-a-walk-in/SKILL.md'),
        WALK_IN_SKILL_MD.replace('name: seat-a-walk-in', 'name: Seat'),
      );
      await expect(server.app.get(McpSkillCatalog).reload()).rejects.toThrow(
        `${join(folder.root, 'seat-a-walk-in')}/SKILL.md: the name "Seat" must be 1-64 lowercase letters`,
      );
      const {
        skills: [listed],
      } = await skills.list();
      expect(listed!.frontmatter.name).toBe('seat-a-walk-in');
      expect((await skills.read(listed!)).verified).toBe(true);
    });
  });
});

describe('watch: true', () => {
  it('reloads when a file under the folder changes (development)', async () => {
    const folder = await skillsFolder({ 'seat-a-walk-in': WALK_IN_FILES });
    const server = await startApp(skillsAppModule({ skills: { directories: [folder.root], watch: true } }), 'express');
    const client = await connectOfficialClient(server.url);
    try {
      const skills = new SkillsClient(client);
      await writeFile(join(folder.root, 'seat-a-walk-in/references/floor.md'), NEW_FLOOR);
      const deadline = Date.now() + 10_000;
      let size = 0;
      while (size !== Buffer.byteLength(NEW_FLOOR) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const {
          skills: [listed],
        } = await skills.list();
        size = filesOf(listed!).find((file) => file.uri === FLOOR)!.size;
      }
      expect(size).toBe(Buffer.byteLength(NEW_FLOOR));
      const {
        skills: [listed],
      } = await skills.list();
      expect(await skills.read(listed!, 'references/floor.md')).toMatchObject({ verified: true, text: NEW_FLOOR });
    } finally {
      await client.close();
      await server.close();
      await folder.remove();
    }
  });
});
