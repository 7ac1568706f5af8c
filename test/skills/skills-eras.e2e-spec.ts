import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { AppModule } from '../../sample/app.module.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { rpc } from '../support/raw-mcp.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';

const SKILL = 'skill://book-a-table/SKILL.md';
const POLICIES = 'skill://book-a-table/references/policies.md';

/** The official client in each era: its default (2025-11-25 initialize) and pinned to 2026-07-28. */
const ERAS: Array<{ era: string; modern: boolean; connect: (url: string) => Promise<Client> }> = [
  {
    era: '2025-11-25 (the client default)',
    modern: false,
    connect: async (url) => (await connectLegacyClient(url)).client,
  },
  { era: '2026-07-28 (pinned)', modern: true, connect: (url) => connectOfficialClient(url) },
];

describe.each(ADAPTERS)('the sample skill with the official SkillsClient, on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(AppModule, adapter);
  });
  afterAll(() => server.close());

  describe.each(ERAS)('$era', ({ modern, connect }) => {
    let client: Client;
    let skills: SkillsClient;
    beforeAll(async () => {
      client = await connect(server.url);
      skills = new SkillsClient(client);
    });
    afterAll(() => client.close());

    it('the server declares the extension, without directoryRead', () => {
      expect(skills.supported).toBe(true);
      expect(skills.directoryRead).toBe(false);
      expect(client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/skills']).toEqual({});
    });

    it('list() gives the sample skill, verbatim frontmatter, every file with size and digest, no invalid entry', async () => {
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills).toHaveLength(1);
      const [skill] = listing.skills;
      expect(skill!.uri).toBe(SKILL);
      expect(skill!.frontmatter).toEqual({
        name: 'book-a-table',
        description: expect.stringMatching(/^Books a table at the bistro/),
        metadata: { server: 'bistro', tools: 'find_tables book_table' },
      });
      expect(skill!.resources).toEqual([
        { uri: SKILL, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), size: expect.any(Number) },
        { uri: POLICIES, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), size: expect.any(Number) },
      ]);
      if (modern) expect(listing).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      else expect(listing.ttlMs).toBeUndefined();
    });

    it('read() of SKILL.md and of its reference file verify (size, digest, frontmatter)', async () => {
      const {
        skills: [skill],
      } = await skills.list();
      const manifest = await skills.read(skill!);
      expect(manifest.verified).toBe(true);
      expect(manifest.frontmatter).toEqual(skill!.frontmatter);
      expect(manifest.mimeType).toBe('text/markdown');
      expect(manifest.body).toMatch(/^\n# Book a table at the bistro\n/);
      expect(manifest.body).toContain('`find_tables`');
      const reference = await skills.read(skill!, 'references/policies.md');
      expect(reference).toMatchObject({ uri: POLICIES, verified: true, mimeType: 'text/markdown' });
      expect(reference.text).toMatch(/^# Bistro booking policies/);
    });

    it('get() gives the same entry; an unknown skill is -32602 with its uri', async () => {
      const {
        skills: [listed],
      } = await skills.list();
      const { skill } = await skills.get(SKILL);
      expect(skill).toEqual(listed);
      await expect(skills.get('skill://no-such-skill/SKILL.md')).rejects.toMatchObject({
        code: -32602,
        data: { uri: 'skill://no-such-skill/SKILL.md' },
      });
    });

    it('readDirectory is refused: the server does not declare directoryRead', async () => {
      await expect(skills.readDirectory('skill://book-a-table')).rejects.toThrow(/does not declare directoryRead/);
    });
  });

  it('without directoryRead, resources/directory/read is an unknown method: -32601, HTTP 404', async () => {
    const response = await rpc(server.url, 'resources/directory/read', { uri: 'skill://book-a-table' });
    expect(response.status).toBe(404);
    expect(response.json.error).toMatchObject({ code: -32601 });
  });
});
