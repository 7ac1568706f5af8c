import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { skillsAppModule, SpecialsSkill } from './skills-app.fixture.js';

const SKILL = 'skill://tonights-specials/SKILL.md';

const ERAS: Array<{ era: string; connect: (url: string) => Promise<Client> }> = [
  { era: '2025-11-25 (the client default)', connect: async (url) => (await connectLegacyClient(url)).client },
  { era: '2026-07-28 (pinned)', connect: (url) => connectOfficialClient(url) },
];

describe.each(ADAPTERS)('a dynamic skill (files generated per read), on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(skillsAppModule({ skills: {}, providers: [SpecialsSkill] }), adapter);
  });
  afterAll(() => server.close());

  describe.each(ERAS)('$era', ({ connect }) => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(server.url);
    });
    afterAll(() => client.close());

    it('is listed as "dynamic"; SKILL.md is read with its frontmatter checked, each file read anew', async () => {
      const skills = new SkillsClient(client);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills).toEqual([
        {
          uri: SKILL,
          frontmatter: { name: 'tonights-specials', description: 'What the kitchen serves tonight beyond the menu.' },
          resources: 'dynamic',
        },
      ]);
      const manifest = await skills.read(listing.skills[0]!);
      expect(manifest).toMatchObject({ verified: false, mimeType: 'text/markdown', body: '\nRead specials.json.\n' });
      const first = JSON.parse((await skills.read(listing.skills[0]!, 'specials.json')).text!);
      const second = JSON.parse((await skills.read(listing.skills[0]!, 'specials.json')).text!);
      expect(second.read).toBeGreaterThan(first.read);
      expect(first.dishes).toEqual(['soupe du jour']);
    });

    it('a file the method does not return is -32602 with its uri', async () => {
      await expect(client.readResource({ uri: 'skill://tonights-specials/wine.md' })).rejects.toMatchObject({
        code: -32602,
        data: { uri: 'skill://tonights-specials/wine.md' },
      });
    });

    it.each(['constructor', 'toString', '__proto__'])(
      'a path that names what every object inherits (%s) is no file either: -32602, not an internal error',
      async (name) => {
        const uri = `skill://tonights-specials/${name}`;
        await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
      },
    );
  });
});
