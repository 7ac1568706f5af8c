import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import type { McpHandlerFactory } from '../discovery/mcp-handler.factory.js';
import { McpToolFactory } from '../discovery/mcp-tool.factory.js';
import { uiResourceMeta } from './mcp-ui-resource-meta.js';

// The extension's own JSON Schema, as its npm package ships it: our _meta.ui must validate against
// McpUiToolMeta (tools) and McpUiResourceMeta (resources).
const require = createRequire(import.meta.url);
const schema = require('@modelcontextprotocol/ext-apps/schema.json') as { $defs: Record<string, object> };
const ajv = new Ajv2020.default({ strict: false, allErrors: true });
const toolMeta = ajv.compile(schema.$defs['McpUiToolMeta']!);
const resourceMeta = ajv.compile(schema.$defs['McpUiResourceMeta']!);

class Tools {
  run(): string {
    return 'ran';
  }
}
const tools = new McpToolFactory({ create: () => ({ invoke: () => 'ran' }) } as unknown as McpHandlerFactory);

describe("_meta.ui against @modelcontextprotocol/ext-apps's schema.json", () => {
  it.each([
    ['a default link', { resourceUri: 'ui://bistro/seating-picker' }],
    ['an app-only tool', { resourceUri: 'ui://bistro/seating-picker', visibility: ['app'] as const }],
    ['both visibilities', { resourceUri: 'ui://x/y', visibility: ['model', 'app'] as const }],
  ])('a tool linked to an app (%s) carries a valid McpUiToolMeta', (_label, ui) => {
    const tool = tools.create(new Tools(), 'run', { description: 'd', ui, _meta: { other: 1 } });
    const meta = tool.definition._meta as Record<string, unknown>;
    expect(toolMeta(meta['ui'])).toBe(true);
    expect(meta['ui']).toEqual({
      resourceUri: ui.resourceUri,
      ...('visibility' in ui && { visibility: ui.visibility }),
    });
    // The deprecated flat key, as the extension's own registerAppTool also sends it; other keys kept.
    expect(meta).toMatchObject({ 'ui/resourceUri': ui.resourceUri, other: 1 });
  });

  it('the schema check can fail: a tool meta with resource declarations is refused', () => {
    expect(toolMeta({ resourceUri: 'ui://x/y', csp: {} })).toBe(false);
    expect(resourceMeta({ permissions: { camera: true } })).toBe(false);
  });

  it('what a client without apps is shown has no UI metadata, and an app-only tool is not shown', () => {
    const linked = tools.create(new Tools(), 'run', { description: 'd', ui: { resourceUri: 'ui://x/y' } });
    expect(linked.withoutUi).not.toHaveProperty('_meta');
    expect(linked.withoutUi).toMatchObject({ name: 'run', description: 'd' });
    const appOnly = tools.create(new Tools(), 'run', {
      description: 'd',
      ui: { resourceUri: 'ui://x/y', visibility: ['app'] },
    });
    expect(appOnly.withoutUi).toBeNull();
  });

  it('every resource declaration, with module defaults added, is a valid McpUiResourceMeta', () => {
    const ui = uiResourceMeta(
      {
        csp: {
          connectDomains: ['https://api.example.com', 'wss://live.example.com'],
          resourceDomains: ['https://*.cdn.example.com'],
          frameDomains: ['https://www.youtube.com'],
          baseUriDomains: ['https://cdn.example.com'],
        },
        permissions: { camera: true, microphone: {}, geolocation: true, clipboardWrite: {} },
        domain: 'a904794854a047f6.claudemcpcontent.com',
        prefersBorder: false,
      },
      { csp: { connectDomains: ['https://api.example.com', 'https://telemetry.example.com'] }, prefersBorder: true },
      'test',
    );
    expect(resourceMeta(ui)).toBe(true);
    expect(ui).toEqual({
      csp: {
        connectDomains: ['https://api.example.com', 'https://telemetry.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.cdn.example.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://cdn.example.com'],
      },
      permissions: { camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} },
      domain: 'a904794854a047f6.claudemcpcontent.com',
      prefersBorder: false,
    });
  });

  it('no declaration is an empty, valid McpUiResourceMeta (hosts then apply their strict default CSP)', () => {
    const ui = uiResourceMeta({}, {}, 'test');
    expect(ui).toEqual({});
    expect(resourceMeta(ui)).toBe(true);
  });

  it.each([
    [{ csp: { connectDomains: ["https://a.example.com; script-src 'unsafe-eval'"] } }, /is not an origin/],
    [{ csp: { connectDomains: ['api.example.com'] } }, /is not an origin/],
    [{ csp: { connectDomain: ['https://a.example.com'] } }, /unknown csp key "connectDomain"/],
    [{ permissions: { usb: true } }, /unknown permission "usb"/],
    [{ permissions: { camera: false } }, /permissions.camera must be true or \{\}/],
    [{ domain: 'a b' }, /domain must be a host name/],
    [{ prefersBorder: 'yes' }, /prefersBorder must be true or false/],
  ])('refuses a malformed declaration %j, naming it', (declarations, message) => {
    expect(() => uiResourceMeta(declarations as never, {}, '@McpAppResource X.view')).toThrow(message);
    expect(() => uiResourceMeta(declarations as never, {}, '@McpAppResource X.view')).toThrow(/X\.view/);
  });
});
