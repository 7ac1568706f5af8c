import type { Client } from '@modelcontextprotocol/client';
import { FoundationModule } from './fixtures/foundation.module.js';
import { connectOfficialClient } from './support/official-client.js';
import { ADAPTERS, type RunningApp, startApp } from './support/start-app.js';

describe.each(ADAPTERS)('the official v2 client against %s', (adapter) => {
  let server: RunningApp;
  let client: Client;

  beforeAll(async () => {
    server = await startApp(FoundationModule, adapter);
    client = await connectOfficialClient(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('discovers the server', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'foundation', version: '1.2.3' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
  });

  it('lists every tool across pages', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(names.sort()).toEqual(['add', 'fail', 'forbidden', 'full_result', 'greet', 'profile', 'protocol_error']);
  });

  it('calls tools', async () => {
    const sum = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(sum.content).toEqual([{ type: 'text', text: '42' }]);
    const profile = await client.callTool({ name: 'profile', arguments: {} });
    expect(profile.structuredContent).toEqual({ name: 'Ada', languages: ['en', 'fr'] });
    const failed = await client.callTool({ name: 'fail', arguments: {} });
    expect(failed.isError).toBe(true);
  });
});
