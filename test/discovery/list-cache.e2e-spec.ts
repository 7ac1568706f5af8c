import { Global, Injectable, Module } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type McpExchange, McpModule, McpRegistrar, McpTool } from '../../src/index.js';
import { McpAccessPolicy, type McpAccessTarget } from '../../src/calls/mcp-access-policy.js';
import { INTEGRATION_ACCESS_POLICY } from '../../src/core/mcp.tokens.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { connectOfficialClient } from '../support/official-client.js';
import { rpc, type RawResponse, post, mcpHeaders, envelope } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';

// tools/list pages are built and serialized once per change of the registry, per view and per set
// of entries the access policy shows: these tests change the registry at runtime and alternate
// callers who see different sets, and check every answer against what is registered now.

@Injectable()
class CatalogTools {
  @McpTool({ name: 'alpha', description: 'First' })
  alpha(): string {
    return 'a';
  }

  @McpTool({ name: 'beta', description: 'Second' })
  beta(): string {
    return 'b';
  }

  @McpTool({ name: 'team_red', description: 'Only the red team sees it' })
  red(): string {
    return 'red';
  }

  @McpTool({ name: 'team_blue', description: 'Only the blue team sees it' })
  blue(): string {
    return 'blue';
  }
}

/** Tools named team_<x> are shown to (and callable by) callers sending `x-team: <x>` only. */
class TeamAccessPolicy extends McpAccessPolicy {
  isVisible(exchange: McpExchange, target: McpAccessTarget): boolean {
    if (!target.name.startsWith('team_')) return true;
    const team = exchange.transport.kind === 'http' ? exchange.transport.request.headers['x-team'] : undefined;
    return target.name === `team_${String(team)}`;
  }

  assertAllowed(): void {}
}

/** Binds the policy the way an integration (e.g. @mocapi/nestjs/oauth2) does: a global provider. */
@Global()
@Module({
  providers: [{ provide: INTEGRATION_ACCESS_POLICY, useClass: TeamAccessPolicy }],
  exports: [INTEGRATION_ACCESS_POLICY],
})
class TeamAccessModule {}

@Module({
  imports: [TeamAccessModule, McpModule.forRoot({ name: 'list-cache', version: '1.0.0', pageSize: 2 })],
  providers: [CatalogTools],
})
class ListCacheModule {}

/** The same tools, no access policy: every caller sees every tool (the core's default). */
@Module({
  imports: [McpModule.forRoot({ name: 'list-cache-open', version: '1.0.0', pageSize: 2 })],
  providers: [CatalogTools],
})
class OpenListModule {}

const extra = { run: () => 'added' };

/** Every page of tools/list in the 2026-07-28 wire, with the x-team header. */
async function listAll(url: string, team?: string): Promise<{ names: string[]; pages: RawResponse[] }> {
  const names: string[] = [];
  const pages: RawResponse[] = [];
  let cursor: string | undefined;
  do {
    const body = {
      jsonrpc: '2.0',
      id: pages.length + 1,
      method: 'tools/list',
      params: { ...(cursor && { cursor }), _meta: envelope() },
    };
    const page = await post(url, body, { ...mcpHeaders('tools/list'), ...(team && { 'x-team': team }) });
    expect(page.status).toBe(200);
    expect(page.json.id).toBe(pages.length + 1);
    pages.push(page);
    names.push(...(page.json.result.tools as Array<{ name: string }>).map((tool) => tool.name));
    cursor = page.json.result.nextCursor;
  } while (cursor);
  return { names, pages };
}

/** Every page of tools/list, through the client's own paging. */
async function everyTool(client: Client): Promise<Array<{ name: string; description?: string }>> {
  const tools: Array<{ name: string; description?: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

describe.each(ADAPTERS)('tools/list served from its page cache (%s)', (adapter) => {
  let server: RunningApp;
  let registrar: McpRegistrar;

  beforeAll(async () => {
    server = await startApp(ListCacheModule, adapter);
    registrar = server.app.get(McpRegistrar);
  });
  afterAll(() => server.close());
  afterEach(() => {
    registrar.removeTool('gamma');
    registrar.removeTool('team_red_extra');
  });

  it('answers each caller with the entries it may see, callers alternating', async () => {
    for (let round = 0; round < 3; round++) {
      expect((await listAll(server.url, 'red')).names).toEqual(['alpha', 'beta', 'team_red']);
      expect((await listAll(server.url, 'blue')).names).toEqual(['alpha', 'beta', 'team_blue']);
      expect((await listAll(server.url)).names).toEqual(['alpha', 'beta']);
    }
  });

  it('shows a tool added at runtime, and stops showing it once removed, on every page', async () => {
    expect((await listAll(server.url, 'red')).names).toEqual(['alpha', 'beta', 'team_red']);
    registrar.addTool(extra, 'run', { name: 'gamma', description: 'Added at runtime' });
    const added = await listAll(server.url, 'red');
    expect(added.names).toEqual(['alpha', 'beta', 'team_red', 'gamma']);
    expect(added.pages).toHaveLength(2);
    expect((await listAll(server.url)).names).toEqual(['alpha', 'beta', 'gamma']);
    expect(registrar.removeTool('gamma')).toBe(true);
    expect((await listAll(server.url, 'red')).names).toEqual(['alpha', 'beta', 'team_red']);
    expect((await listAll(server.url)).names).toEqual(['alpha', 'beta']);
  });

  it('without an access policy, shows a tool added at runtime and drops it once removed', async () => {
    const open = await startApp(OpenListModule, adapter);
    try {
      const tools = open.app.get(McpRegistrar);
      const all = ['alpha', 'beta', 'team_red', 'team_blue'];
      expect((await listAll(open.url)).names).toEqual(all);
      tools.addTool(extra, 'run', { name: 'gamma', description: 'Added at runtime' });
      expect((await listAll(open.url)).names).toEqual([...all, 'gamma']);
      tools.removeTool('team_red');
      expect((await listAll(open.url)).names).toEqual(['alpha', 'beta', 'team_blue', 'gamma']);
    } finally {
      await open.close();
    }
  });

  it('applies the access policy to a tool added at runtime', async () => {
    registrar.addTool(extra, 'run', { name: 'team_red_extra', description: 'Red only, added later' });
    expect((await listAll(server.url, 'red')).names).not.toContain('team_red_extra');
    expect((await listAll(server.url, 'red_extra')).names).toEqual(['alpha', 'beta', 'team_red_extra']);
    expect((await listAll(server.url, 'blue')).names).toEqual(['alpha', 'beta', 'team_blue']);
  });

  it('writes a cached page as the same JSON a fresh page would be, cache fields included', async () => {
    // A change drops the cached pages: the first listing after it builds them, the second is served from them.
    registrar.addTool(extra, 'run', { name: 'gamma', description: 'Added at runtime' });
    const first = await listAll(server.url);
    const second = await listAll(server.url);
    expect(second.pages.map((page) => page.json.result)).toEqual(first.pages.map((page) => page.json.result));
    const [page] = first.pages;
    expect(page!.json.result).toMatchObject({ resultType: 'complete', cacheScope: expect.any(String) });
    expect(page!.json.result.tools[0]).toEqual({
      name: 'alpha',
      description: 'First',
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
    expect(page!.headers['content-length']).toBe(String(Buffer.byteLength(page!.text)));
  });

  it('refuses a cursor it did not mint, and still serves the good ones afterwards', async () => {
    const bad = await rpc(server.url, 'tools/list', { cursor: 'not-ours' });
    expect(bad.json.error.code).toBe(-32602);
    expect((await listAll(server.url)).names).toEqual(['alpha', 'beta']);
  });

  it('serves the 2025 era from the same cache, in its own shape', async () => {
    const wire = await LegacyWire.open(server.url, {}, { 'x-team': 'blue' });
    const before = await wire.request('tools/list');
    expect(before.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['alpha', 'beta']);
    expect(before.json.result).not.toHaveProperty('resultType');
    expect(before.json.result).not.toHaveProperty('ttlMs');
    registrar.addTool(extra, 'run', { name: 'gamma', description: 'Added at runtime' });
    const next = await wire.request('tools/list', { cursor: before.json.result.nextCursor });
    expect(next.json.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['team_blue', 'gamma']);
  });

  it('is what the official client lists, before and after a change', async () => {
    const modern = await connectOfficialClient(server.url);
    const defaults = new Client({ name: 'list-cache-defaults', version: '1.0.0' });
    await defaults.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      for (const client of [modern, defaults]) {
        expect((await everyTool(client)).map((tool) => tool.name)).toEqual(['alpha', 'beta']);
      }
      registrar.addTool(extra, 'run', { name: 'gamma', description: 'Added at runtime' });
      for (const client of [modern, defaults]) {
        const tools = await everyTool(client);
        expect(tools.map((tool) => tool.name)).toEqual(['alpha', 'beta', 'gamma']);
        expect(tools[2]).toMatchObject({ description: 'Added at runtime' });
      }
    } finally {
      await modern.close();
      await defaults.close();
    }
  });
});
