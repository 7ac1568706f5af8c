import { Injectable, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpResource } from '../decorators/mcp-resource.decorator.js';
import { McpTool } from '../decorators/mcp-tool.decorator.js';
import { McpRegistrar } from '../discovery/mcp-registrar.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpServerExtensions } from '../discovery/mcp-server-extensions.js';
import { McpModule } from '../mcp.module.js';
import { McpTestClient } from '../testing/mcp-test-client.js';
import { McpAppResource } from './mcp-app-resource.decorator.js';
import { McpAppsModule } from './mcp-apps.module.js';
import type { McpAppsOptions } from './mcp-apps.options.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-apps-'));
const bundle = join(dir, 'view.html');
writeFileSync(bundle, '<!doctype html><html><body>view</body></html>');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

@Injectable()
class LinkedTools {
  @McpTool({ description: 'shows the view', ui: { resourceUri: 'ui://test/view' } })
  show(): string {
    return 'shown';
  }
}

@Injectable()
class ViewResource {
  @McpAppResource({ uri: 'ui://test/view', csp: { connectDomains: ['https://api.example.com'] } })
  view(): string {
    return '<!doctype html><html><body>view</body></html>';
  }
}

/** Starts McpModule + McpAppsModule with `providers`; resolves to the app, or rejects with the startup error. */
async function start(providers: Type<unknown>[], options: McpAppsOptions = {}) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'apps', version: '1.0.0', http: false }), McpAppsModule.forRoot(options)],
    providers,
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

describe('McpAppsModule at startup', () => {
  it('declares the extension and serves a decorated app resource with its _meta.ui and the app MIME type', async () => {
    const app = await start([LinkedTools, ViewResource], { csp: { resourceDomains: ['https://cdn.example.com'] } });
    try {
      expect(app.get(McpServerExtensions).all()).toEqual({
        'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      });
      expect(app.get(McpResourceRegistry).resources.get('ui://test/view')?.definition).toEqual({
        uri: 'ui://test/view',
        name: 'view',
        mimeType: 'text/html;profile=mcp-app',
        _meta: {
          ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] } },
        },
      });
    } finally {
      await app.close();
    }
  });

  it('serves a bundle file of `apps`, with its size and modification time as hints', async () => {
    const app = await start([LinkedTools], { apps: [{ uri: 'ui://test/view', name: 'view', bundle }] });
    try {
      expect(app.get(McpResourceRegistry).resources.get('ui://test/view')?.definition).toMatchObject({
        mimeType: 'text/html;profile=mcp-app',
        size: 45,
        annotations: { lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      });
    } finally {
      await app.close();
    }
  });

  it('fails on a tool linked to a resource the server does not have, naming both', async () => {
    await expect(start([LinkedTools])).rejects.toThrow(
      /MCP tool "show" \(LinkedTools\.show\) is linked to ui:\/\/test\/view, which this server does not have/,
    );
  });

  it('fails on a tool linked to a resource that is not an app, naming both', async () => {
    @Injectable()
    class PlainResource {
      @McpResource({ uri: 'ui://test/view', mimeType: 'text/html' })
      view(): string {
        return '<html></html>';
      }
    }
    await expect(start([LinkedTools, PlainResource])).rejects.toThrow(
      /MCP tool "show" \(LinkedTools\.show\) is linked to ui:\/\/test\/view \(PlainResource\.view\), which is not an MCP App resource/,
    );
  });

  it('fails on an app resource whose URI is not ui://', async () => {
    @Injectable()
    class HttpView {
      @McpAppResource({ uri: 'https://example.com/view' })
      view(): string {
        return '<html></html>';
      }
    }
    await expect(start([HttpView])).rejects.toThrow(
      /@McpAppResource HttpView\.view: an MCP App resource URI must use the ui:\/\/ scheme/,
    );
    await expect(start([], { apps: [{ uri: 'bistro://view', name: 'v', bundle }] })).rejects.toThrow(
      /app bistro:\/\/view: an MCP App resource URI must use the ui:\/\/ scheme/,
    );
  });

  it('fails on a missing bundle file, naming the app and the path', async () => {
    const missing = join(dir, 'not-built.html');
    await expect(start([], { apps: [{ uri: 'ui://test/view', name: 'v', bundle: missing }] })).rejects.toThrow(
      `McpAppsModule: the bundle of ui://test/view is missing: ${missing}`,
    );
  });

  it('fails on a bundle larger than maxBundleBytes, and on a file that is not HTML', async () => {
    await expect(
      start([], { apps: [{ uri: 'ui://test/view', name: 'v', bundle }], maxBundleBytes: 10 }),
    ).rejects.toThrow(/is 45 bytes, more than maxBundleBytes \(10\)/);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'just text');
    await expect(start([], { apps: [{ uri: 'ui://test/view', name: 'v', bundle: text }] })).rejects.toThrow(
      /is not an HTML document/,
    );
  });

  it('refuses options it cannot use', async () => {
    await expect(start([], { maxBundleBytes: 0 })).rejects.toThrow(/maxBundleBytes must be a positive whole number/);
    await expect(start([], { apps: [{ uri: 'ui://test/view', name: 'v' } as never] })).rejects.toThrow(
      /the app ui:\/\/test\/view needs a bundle/,
    );
  });
});

describe('McpAppsModule.forRootAsync', () => {
  it('takes its options from a factory (e.g. with ConfigService)', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({ name: 'apps', version: '1.0.0', http: false }),
        McpAppsModule.forRootAsync({
          useFactory: async () => ({ apps: [{ uri: 'ui://test/view', name: 'view', bundle }], prefersBorder: false }),
        }),
      ],
      providers: [LinkedTools],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      expect(app.get(McpResourceRegistry).resources.get('ui://test/view')?.definition).toMatchObject({
        name: 'view',
        _meta: { ui: { prefersBorder: false } },
      });
    } finally {
      await app.close();
    }
  });
});

describe('MCP Apps without McpAppsModule, and app resources whose handler sets _meta.ui', () => {
  it('fails at startup on a tool linked to an app when nothing declares the extension, naming the tool and the module', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'apps', version: '1.0.0', http: false })],
      providers: [LinkedTools, ViewResource],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await expect(app.init()).rejects.toThrow(
      /MCP tool "show" \(LinkedTools\.show\) is linked to the MCP App ui:\/\/test\/view, but the server does not declare the MCP Apps extension \(io\.modelcontextprotocol\/ui\): add McpAppsModule\.forRoot\(\{\}\)/,
    );
    await app.close().catch(() => undefined);
  });

  it('keeps the declared CSP when the handler sets other _meta.ui keys on its contents', async () => {
    @Injectable()
    class BorderedView {
      @McpAppResource({ uri: 'ui://test/view', csp: { connectDomains: ['https://api.example.com'] } })
      view() {
        const html = '<!doctype html><html><body>view</body></html>';
        return {
          contents: [
            {
              uri: 'ui://test/view',
              mimeType: 'text/html;profile=mcp-app',
              text: html,
              _meta: { ui: { prefersBorder: true } },
            },
          ],
        };
      }
    }
    const mcp = await McpTestClient.start({
      imports: [McpModule.forRoot({ name: 'apps', version: '1.0.0' }), McpAppsModule.forRoot({})],
      providers: [LinkedTools, BorderedView],
    });
    try {
      expect((await mcp.readAppResource('ui://test/view')).ui).toEqual({
        csp: { connectDomains: ['https://api.example.com'] },
        prefersBorder: true,
      });
    } finally {
      await mcp.close();
    }
  });
});

describe('MCP Apps and tools added or removed while the server runs (McpRegistrar)', () => {
  it('shapes tools/list for each kind of client after every change', async () => {
    @Injectable()
    class RuntimeTools {
      pick(): string {
        return 'picked';
      }
    }
    const metadata = {
      imports: [McpModule.forRoot({ name: 'apps', version: '1.0.0' }), McpAppsModule.forRoot({})],
      providers: [ViewResource, RuntimeTools],
    };
    const plain = await McpTestClient.start(metadata);
    const names = async (client: McpTestClient) => (await client.listTools()).map((tool) => tool['name']);
    // The same server as seen by a client that renders apps (McpTestClient declares one set of capabilities).
    const appToolList = async () => {
      const response = await fetch(plain.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {
                extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
              },
            },
          },
        }),
      });
      return ((await response.json()) as { result: { tools: Array<Record<string, unknown>> } }).result.tools;
    };
    try {
      const registrar = plain.app.get(McpRegistrar);
      const tools = plain.app.get(RuntimeTools);
      registrar.addTool(tools, 'pick', { name: 'plain_pick', description: 'd' });
      expect(await names(plain)).toEqual(['plain_pick']);
      registrar.addTool(tools, 'pick', {
        name: 'app_pick',
        description: 'd',
        ui: { resourceUri: 'ui://test/view', visibility: ['app'] },
      });
      expect(await names(plain)).toEqual(['plain_pick']);
      const shown = await appToolList();
      expect(shown.map((tool) => tool['name'])).toEqual(['plain_pick', 'app_pick']);
      expect(shown[1]?.['_meta']).toMatchObject({ ui: { resourceUri: 'ui://test/view', visibility: ['app'] } });
      registrar.removeTool('app_pick');
      expect((await appToolList()).map((tool) => tool['name'])).toEqual(['plain_pick']);
      expect(await names(plain)).toEqual(['plain_pick']);
    } finally {
      await plain.close();
    }
  });

  it('refuses, once started, a tool linked to an app resource the server does not have, and keeps it out', async () => {
    @Injectable()
    class LateTools {
      pick(): string {
        return 'picked';
      }
    }
    const mcp = await McpTestClient.start({
      imports: [McpModule.forRoot({ name: 'apps', version: '1.0.0' }), McpAppsModule.forRoot({})],
      providers: [ViewResource, LinkedTools, LateTools],
    });
    try {
      const registrar = mcp.app.get(McpRegistrar);
      expect(() =>
        registrar.addTool(mcp.app.get(LateTools), 'pick', {
          name: 'late',
          description: 'd',
          ui: { resourceUri: 'ui://test/missing' },
        }),
      ).toThrow(
        /MCP tool "late" \(LateTools\.pick\) is linked to ui:\/\/test\/missing, which this server does not have/,
      );
      expect((await mcp.listTools()).map((tool) => tool['name'])).toEqual(['show']);
    } finally {
      await mcp.close();
    }
  });
});
