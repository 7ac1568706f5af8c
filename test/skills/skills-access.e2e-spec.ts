import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { LocalIssuer } from '../oauth2/local-issuer.js';
import { connectOfficialClient } from '../support/official-client.js';
import { freePort } from '../support/free-port.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { skillsAppModule, skillsFolder, StaffSkills, WALK_IN_FILES } from './skills-app.fixture.js';

const WALK_IN = 'skill://bistro/seat-a-walk-in/SKILL.md';
const TILL = 'skill://bistro/close-the-till/SKILL.md';

type Connect = (url: string, token: string) => Promise<Client>;
const withToken =
  (token: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
const ERAS: Array<{ era: string; connect: Connect }> = [
  {
    era: '2025-11-25 (the client default)',
    connect: async (url, token) => (await connectLegacyClient(url, { fetch: withToken(token) })).client,
  },
  { era: '2026-07-28 (pinned)', connect: (url, token) => connectOfficialClient(url, { fetch: withToken(token) }) },
];

describe.each(ADAPTERS)('skills behind OAuth scopes, with directoryRead, on %s', (adapter) => {
  let issuer: LocalIssuer;
  let server: RunningApp;
  let folder: Awaited<ReturnType<typeof skillsFolder>>;
  const tokens = { guest: '', staff: '' };

  beforeAll(async () => {
    issuer = await LocalIssuer.start();
    await issuer.addKey('k1');
    folder = await skillsFolder({ 'seat-a-walk-in': WALK_IN_FILES });
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    const module = skillsAppModule({
      skills: { directories: [folder.root], prefix: 'bistro', directoryRead: true },
      oauth2: { issuer: issuer.issuer, audience },
      providers: [StaffSkills],
    });
    server = await startApp(module, adapter, { port });
    tokens.guest = await issuer.sign({ sub: 'guest', aud: audience, scope: 'menu' });
    tokens.staff = await issuer.sign({ sub: 'ann', aud: audience, scope: 'menu staff' });
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.stop();
    await folder?.remove();
  });

  describe.each(ERAS)('$era', ({ connect }) => {
    it('a caller without the scope sees only the public skill, and cannot get or read the hidden one', async () => {
      const client = await connect(server.url, tokens.guest);
      try {
        const skills = new SkillsClient(client);
        const listing = await skills.list();
        expect(listing.skills.map((skill) => skill.uri)).toEqual([WALK_IN]);
        await expect(skills.get(TILL)).rejects.toThrow(/Insufficient scope: required "staff"/);
        await expect(client.readResource({ uri: TILL })).rejects.toThrow(/Insufficient scope: required "staff"/);
        const { resources } = await client.listResources();
        expect(resources.map((resource) => resource.uri).filter((uri) => uri.includes('close-the-till'))).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('a caller with the scope sees both; the skill built in code verifies like the one from disk', async () => {
      const client = await connect(server.url, tokens.staff);
      try {
        const skills = new SkillsClient(client);
        const listing = await skills.list();
        expect(listing.invalid).toEqual([]);
        expect(listing.skills.map((skill) => skill.uri)).toEqual([TILL, WALK_IN]);
        const till = listing.skills[0]!;
        expect(till.resources).toEqual([
          { uri: 'skill://bistro/close-the-till/SKILL.md', digest: expect.any(String), size: expect.any(Number) },
          { uri: 'skill://bistro/close-the-till/checklist.txt', digest: expect.any(String), size: 18 },
        ]);
        expect((await skills.read(till)).body).toBe("\nCount the cash, then print the day's report.\n");
        expect(await skills.read(till, 'checklist.txt')).toMatchObject({
          verified: true,
          text: 'cash\ncards\nreport\n',
        });
        expect((await skills.get(TILL)).skill).toEqual(till);
      } finally {
        await client.close();
      }
    });

    it('readDirectory lists a skill folder and a subfolder; a URI that is no skill folder is -32602', async () => {
      const client = await connect(server.url, tokens.guest);
      try {
        const skills = new SkillsClient(client);
        expect(skills.directoryRead).toBe(true);
        expect(client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/skills']).toEqual({
          directoryRead: true,
        });
        const root = await skills.readDirectory('skill://bistro/seat-a-walk-in');
        expect(root.resources).toEqual([
          { uri: WALK_IN, name: 'SKILL.md', mimeType: 'text/markdown', size: expect.any(Number) },
          { uri: 'skill://bistro/seat-a-walk-in/references', name: 'references', mimeType: 'inode/directory' },
        ]);
        const references = await skills.readDirectory('skill://bistro/seat-a-walk-in/references');
        expect(references.resources.map((child) => [child.name, child.mimeType])).toEqual([
          ['floor.md', 'text/markdown'],
          ['tables', 'inode/directory'],
        ]);
        const { skills: entries } = await skills.list();
        const sizes = await skills.readDirectory('skill://bistro/seat-a-walk-in/references/tables');
        expect(sizes.resources).toEqual([
          {
            uri: 'skill://bistro/seat-a-walk-in/references/tables/sizes.csv',
            name: 'sizes.csv',
            mimeType: 'text/csv',
            size: WALK_IN_FILES['references/tables/sizes.csv']!.length,
          },
        ]);
        expect((await skills.read(entries[0]!, 'references/tables/sizes.csv')).verified).toBe(true);
        await expect(skills.readDirectory('skill://bistro/no-such-skill')).rejects.toMatchObject({
          code: -32602,
          data: { uri: 'skill://bistro/no-such-skill' },
        });
        await expect(skills.readDirectory('skill://bistro/close-the-till')).rejects.toThrow(
          /Insufficient scope: required "staff"/,
        );
      } finally {
        await client.close();
      }
    });
  });
});
