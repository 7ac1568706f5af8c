import type { Client } from '@modelcontextprotocol/client';
import { AppModule } from '../../sample/app.module.js';
import { McpTestClient } from '../../src/testing/index.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';

const UI = 'io.modelcontextprotocol/ui';
const APP_MIME = 'text/html;profile=mcp-app';
const RENDERS_APPS = { extensions: { [UI]: { mimeTypes: [APP_MIME] } } };
/** Declares the extension, but for another kind of view only: not a client that renders these apps. */
const OTHER_VIEWS = { extensions: { [UI]: { mimeTypes: ['text/uri-list'] } } };

/** The official client in each era: its default (2025-11-25 initialize) and pinned to 2026-07-28. */
const ERAS: Array<{ era: string; connect: (url: string, capabilities: object) => Promise<Client> }> = [
  {
    era: '2025-11-25 (the client default)',
    connect: async (url, capabilities) =>
      (await connectLegacyClient(url, { capabilities: { ...capabilities } })).client,
  },
  {
    era: '2026-07-28 (pinned)',
    connect: (url, capabilities) => connectOfficialClient(url, { capabilities: { ...capabilities } }),
  },
];

describe.each(ADAPTERS)('MCP Apps in both eras, with the official client, on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(AppModule, adapter);
  });
  afterAll(() => server.close());

  describe.each(ERAS)('$era', ({ connect }) => {
    it('a client that renders apps: the extension, the linked tools with _meta.ui, text that names the picker', async () => {
      const client = await connect(server.url, RENDERS_APPS);
      try {
        expect(client.getServerCapabilities()?.extensions).toMatchObject({ [UI]: { mimeTypes: [APP_MIME] } });
        const { tools } = await client.listTools();
        const find = tools.find((t) => t.name === 'find_tables')!;
        expect(find._meta).toMatchObject({
          ui: { resourceUri: 'ui://bistro/seating-picker' },
          'ui/resourceUri': 'ui://bistro/seating-picker',
        });
        expect(tools.find((t) => t.name === 'book_seating')?._meta?.['ui']).toEqual({
          resourceUri: 'ui://bistro/seating-picker',
          visibility: ['app'],
        });
        const result = await client.callTool({ name: 'find_tables', arguments: { date: '2027-01-04', partySize: 3 } });
        expect(result.content).toEqual([
          {
            type: 'text',
            text: 'Free seatings for 3 on 2027-01-04: 18:00, 18:30, 19:00, 19:30, 20:00, 20:30, 21:00. The guest can pick one in the seating picker, or book one with book_table.',
          },
        ]);
        expect(result.structuredContent).toMatchObject({ date: '2027-01-04', partySize: 3 });
        const read = await client.readResource({ uri: 'ui://bistro/seating-picker' });
        expect(read.contents[0]).toMatchObject({ mimeType: APP_MIME, _meta: { ui: { prefersBorder: true } } });
        expect((read.contents[0] as { text: string }).text).toMatch(/^<!doctype html>/i);
      } finally {
        await client.close();
      }
    });

    it.each([
      ['declares no extension', {}],
      ['declares the extension for other view types only', OTHER_VIEWS],
    ])(
      'a client that %s: the same tool without UI metadata, meaningful text, no app-only tool',
      async (_label, capabilities) => {
        const client = await connect(server.url, capabilities);
        try {
          // The server's own declaration does not depend on the client.
          expect(client.getServerCapabilities()?.extensions).toMatchObject({ [UI]: { mimeTypes: [APP_MIME] } });
          const { tools } = await client.listTools();
          const find = tools.find((t) => t.name === 'find_tables')!;
          expect(find).toMatchObject({
            name: 'find_tables',
            description: 'Lists the seatings that still have a free table',
          });
          expect(find._meta ?? {}).not.toHaveProperty('ui');
          expect(find._meta ?? {}).not.toHaveProperty(['ui/resourceUri']);
          expect(tools.map((t) => t.name)).not.toContain('book_seating');
          expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['find_tables', 'book_table']));
          const result = await client.callTool({
            name: 'find_tables',
            arguments: { date: '2027-01-05', partySize: 2 },
          });
          expect(result.content).toEqual([
            {
              type: 'text',
              text: 'Free seatings for 2 on 2027-01-05: 18:00, 18:30, 19:00, 19:30, 20:00, 20:30, 21:00. Book one with book_table.',
            },
          ]);
        } finally {
          await client.close();
        }
      },
    );
  });
});

describe.each(ADAPTERS)('MCP Apps: the app-only tool, in both eras, on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(AppModule, adapter);
  });
  afterAll(() => server.close());

  const booking = { name: 'Ada', email: 'ada@example.com', date: '2027-01-06', partySize: 2, time: '19:00' };

  describe.each(ERAS)('$era', ({ connect }) => {
    it('a client that does not render apps cannot call book_seating (unknown tool), so book_table stays the way to book', async () => {
      const client = await connect(server.url, {});
      try {
        const outcome: unknown = await client.callTool({ name: 'book_seating', arguments: booking }).then(
          (result) => result,
          (error: unknown) => error,
        );
        const text = outcome instanceof Error ? outcome.message : JSON.stringify(outcome);
        expect(text).toContain('Unknown tool: book_seating');
        expect(text).not.toContain('Booked');
      } finally {
        await client.close();
      }
    });

    it('a client that renders apps can call it', async () => {
      const client = await connect(server.url, RENDERS_APPS);
      try {
        const result = await client.callTool({ name: 'book_seating', arguments: booking });
        expect(result.isError).toBeFalsy();
        expect(JSON.stringify(result.content)).toContain('Booked a table for 2 at 19:00 on 2027-01-06 under Ada');
      } finally {
        await client.close();
      }
    });
  });
});

describe.each(ADAPTERS)('McpTestClient and MCP Apps, on %s', (adapter) => {
  it('with `apps: true` it lists the app-linked tools and reads the app resource', async () => {
    const mcp = await McpTestClient.start(AppModule, { adapter, apps: true });
    try {
      const discover = await mcp.request('server/discover');
      expect((discover['capabilities'] as any).extensions[UI]).toEqual({ mimeTypes: [APP_MIME] });
      expect((await mcp.listAppTools()).map((t) => t['name']).sort()).toEqual(['book_seating', 'find_tables']);
      const app = await mcp.readAppResource('ui://bistro/seating-picker');
      expect(app).toMatchObject({ uri: 'ui://bistro/seating-picker', mimeType: APP_MIME, ui: { prefersBorder: true } });
      expect(app.html).toContain('<html lang="en">');
      const { resources } = (await mcp.request('resources/list')) as any;
      expect(resources.find((r: any) => r.uri === 'ui://bistro/seating-picker')).toMatchObject({
        name: 'seating-picker',
        mimeType: APP_MIME,
        _meta: { ui: { prefersBorder: true } },
      });
    } finally {
      await mcp.close();
    }
  });

  it('without it, it sees what hosts without apps see; readAppResource refuses a resource that is not an app', async () => {
    const mcp = await McpTestClient.start(AppModule, { adapter });
    try {
      expect(await mcp.listAppTools()).toEqual([]);
      await expect(mcp.readAppResource('bistro://menu')).rejects.toThrow(/bistro:\/\/menu is not an MCP App resource/);
    } finally {
      await mcp.close();
    }
  });
});
