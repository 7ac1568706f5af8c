// Icons (SEP-973) on the server's own info and on every listed tool, prompt, resource, template
// and MCP App resource, as the official client reads them in both eras, on both adapters; a bad
// icon stops the application at startup naming its owner.
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Client } from '@modelcontextprotocol/client';
import { McpAppResource, McpAppsModule } from '../../src/apps/index.js';
import { type McpIcon, McpModule, McpPrompt, McpResource, McpResourceTemplate, McpTool } from '../../src/index.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { rpc } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';

const SERVER_ICONS: McpIcon[] = [
  { src: 'https://example.com/orders-48.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' },
  { src: 'https://example.com/orders-dark.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' },
];
const TOOL_ICONS: McpIcon[] = [{ src: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png', sizes: ['16x16'] }];
const PROMPT_ICONS: McpIcon[] = [{ src: 'https://example.com/prompt.png' }];
const RESOURCE_ICONS: McpIcon[] = [{ src: 'https://example.com/menu.png', sizes: ['32x32', '64x64'] }];
const TEMPLATE_ICONS: McpIcon[] = [{ src: 'https://example.com/order.png', theme: 'dark' }];
const APP_ICONS: McpIcon[] = [{ src: 'https://example.com/picker.svg', mimeType: 'image/svg+xml' }];

@Injectable()
class IconTools {
  @McpTool({ description: 'Places an order', icons: TOOL_ICONS })
  place() {
    return 'placed';
  }

  @McpTool({ description: 'Has no icon' })
  plain() {
    return 'plain';
  }

  @McpPrompt({ description: 'Asks for a summary', icons: PROMPT_ICONS })
  summary() {
    return 'Summarise the orders';
  }

  @McpResource({ uri: 'menu://today', mimeType: 'text/plain', icons: RESOURCE_ICONS })
  menu() {
    return 'soup';
  }

  @McpResourceTemplate({ uriTemplate: 'orders://{id}', icons: TEMPLATE_ICONS })
  order({ id }: { id: string }) {
    return `order ${id}`;
  }

  @McpAppResource({ uri: 'ui://icons/picker', icons: APP_ICONS })
  picker() {
    return '<!doctype html><html><body>picker</body></html>';
  }
}

@Module({
  imports: [
    McpModule.forRoot({ name: 'icons', version: '1.0.0', title: 'Icons', icons: SERVER_ICONS }),
    McpAppsModule.forRoot({}),
  ],
  providers: [IconTools],
})
class IconsModule {}

type Listed = { name: string; uri?: string; uriTemplate?: string; icons?: unknown };
const byName = (items: Listed[], name: string) => items.find((item) => item.name === name);

const ERAS: Array<{ era: string; connect: (url: string) => Promise<Client> }> = [
  { era: '2025-11-25 (the client default)', connect: async (url) => (await connectLegacyClient(url)).client },
  { era: '2026-07-28 (pinned)', connect: (url) => connectOfficialClient(url) },
];

describe.each(ADAPTERS)('icons on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(IconsModule, adapter);
  });
  afterAll(() => server.close());

  it('server/discover names the server with its icons (serverInfo in _meta)', async () => {
    const r = await rpc(server.url, 'server/discover');
    expect(r.json.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({
      name: 'icons',
      version: '1.0.0',
      title: 'Icons',
      icons: SERVER_ICONS,
    });
  });

  it('the 2026-07-28 lists carry each icon as declared, and nothing for a tool without one', async () => {
    const tools = (await rpc(server.url, 'tools/list')).json.result.tools as Listed[];
    expect(byName(tools, 'place')!.icons).toEqual(TOOL_ICONS);
    expect(byName(tools, 'plain')).not.toHaveProperty('icons');
    const prompts = (await rpc(server.url, 'prompts/list')).json.result.prompts as Listed[];
    expect(byName(prompts, 'summary')!.icons).toEqual(PROMPT_ICONS);
    const resources = (await rpc(server.url, 'resources/list')).json.result.resources as Listed[];
    expect(byName(resources, 'menu')!.icons).toEqual(RESOURCE_ICONS);
    expect(byName(resources, 'picker')!.icons).toEqual(APP_ICONS);
    const templates = (await rpc(server.url, 'resources/templates/list')).json.result.resourceTemplates as Listed[];
    expect(byName(templates, 'order')!.icons).toEqual(TEMPLATE_ICONS);
  });

  describe.each(ERAS)('the official client, $era', ({ era, connect }) => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(server.url);
    });
    afterAll(() => client.close());

    it(`reads the server's icons (${era.startsWith('2025') ? 'initialize' : 'server/discover'})`, () => {
      expect(client.getServerVersion()).toMatchObject({ name: 'icons', icons: SERVER_ICONS });
    });

    it('reads the icons of tools, prompts, resources, templates and app resources', async () => {
      expect(byName((await client.listTools()).tools, 'place')!.icons).toEqual(TOOL_ICONS);
      expect(byName((await client.listPrompts()).prompts, 'summary')!.icons).toEqual(PROMPT_ICONS);
      const { resources } = await client.listResources();
      expect([byName(resources, 'menu')!.icons, byName(resources, 'picker')!.icons]).toEqual([
        RESOURCE_ICONS,
        APP_ICONS,
      ]);
      expect(byName((await client.listResourceTemplates()).resourceTemplates, 'order')!.icons).toEqual(TEMPLATE_ICONS);
    });
  });
});

describe('a bad icon stops the application at startup', () => {
  async function start(providers: Function[], forRoot: Record<string, unknown> = {}): Promise<void> {
    @Module({
      imports: [McpModule.forRoot({ name: 'bad-icons', version: '1.0.0', ...forRoot }), McpAppsModule.forRoot({})],
      providers: providers as never[],
    })
    class BadModule {}
    const app = await NestFactory.create(BadModule, { logger: false, abortOnError: false });
    try {
      await app.init();
    } finally {
      await app.close();
    }
  }

  it.each([
    [
      'a tool',
      () => {
        @Injectable()
        class Tools {
          @McpTool({ description: 'd', icons: [{ src: 'http://example.com/a.png' }] })
          place() {
            return 'x';
          }
        }
        return Tools;
      },
      /^MCP tool "place" \(Tools\.place\): icons\[0\]\.src must be an https: URL or a data: URI of an image/,
    ],
    [
      'a prompt',
      () => {
        @Injectable()
        class Prompts {
          @McpPrompt({ description: 'd', icons: [{ src: 'https://example.com/a.png', sizes: ['big'] }] })
          ask() {
            return 'x';
          }
        }
        return Prompts;
      },
      /^MCP prompt "ask" \(Prompts\.ask\): icons\[0\]\.sizes\[0\] must be WIDTHxHEIGHT/,
    ],
    [
      'a resource',
      () => {
        @Injectable()
        class Resources {
          @McpResource({ uri: 'menu://x', icons: [{ src: 'https://example.com/a.png', theme: 'blue' as never }] })
          menu() {
            return 'x';
          }
        }
        return Resources;
      },
      /^MCP resource menu:\/\/x \(Resources\.menu\): icons\[0\]\.theme must be 'light' or 'dark'/,
    ],
    [
      'a template',
      () => {
        @Injectable()
        class Templates {
          @McpResourceTemplate({ uriTemplate: 'o://{id}', icons: [{ src: 'https://example.com/a.png', mimeType: '' }] })
          order() {
            return 'x';
          }
        }
        return Templates;
      },
      /^MCP resource template o:\/\/\{id\} \(Templates\.order\): icons\[0\]\.mimeType must be a non-empty string/,
    ],
    [
      'an app resource',
      () => {
        @Injectable()
        class Apps {
          @McpAppResource({ uri: 'ui://x/y', icons: { src: 'https://example.com/a.png' } as never })
          view() {
            return '<html></html>';
          }
        }
        return Apps;
      },
      /^@McpAppResource Apps\.view: icons must be an array of icons/,
    ],
  ])('%s', async (_what, make, message) => {
    await expect(start([make()])).rejects.toThrow(message);
  });

  it('the server (forRoot)', async () => {
    await expect(start([], { icons: [{ src: 'javascript:alert(1)' }] })).rejects.toThrow(
      /`icons\[0\]\.src` must be an https: URL or a data: URI of an image/,
    );
  });
});
