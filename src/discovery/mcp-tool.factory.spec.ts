import { McpToolFactory } from './mcp-tool.factory.js';
import type { McpHandlerFactory } from './mcp-handler.factory.js';

class Tools {
  run(): string {
    return 'ran';
  }
}

const handlers = { create: () => ({ invoke: async () => 'ran' }) } as unknown as McpHandlerFactory;
const factory = new McpToolFactory(handlers);

describe('McpToolFactory: task options', () => {
  it('carries taskSupport and taskCreation to the registered tool', () => {
    const tool = factory.create(new Tools(), 'run', {
      description: 'd',
      taskSupport: 'required',
      taskCreation: 'handler',
    });
    expect(tool).toMatchObject({ taskSupport: 'required', taskCreation: 'handler' });
    expect(factory.create(new Tools(), 'run', { description: 'd' }).taskSupport).toBeUndefined();
  });

  it('refuses, at startup, task options it cannot honour, saying what to set', () => {
    expect(() => factory.create(new Tools(), 'run', { description: 'd', taskSupport: 'always' as never })).toThrow(
      /taskSupport must be 'optional' or 'required'/,
    );
    expect(() => factory.create(new Tools(), 'run', { description: 'd', taskCreation: 'handler' })).toThrow(
      /taskCreation needs taskSupport/,
    );
    expect(() =>
      factory.create(new Tools(), 'run', { description: 'd', taskSupport: 'optional', taskCreation: 'later' as never }),
    ).toThrow(/taskCreation must be 'immediate' or 'handler'/);
  });
});

describe('McpToolFactory: tools linked to an MCP App', () => {
  it('shows clients without apps the tool with none of its UI keys, also those the application wrote in _meta', () => {
    const tool = factory.create(new Tools(), 'run', {
      description: 'd',
      _meta: { ui: { resourceUri: 'ui://old/view' }, 'ui/resourceUri': 'ui://old/view', 'acme/team': 'search' },
      ui: { resourceUri: 'ui://test/view' },
    });
    expect(tool.definition._meta).toEqual({
      ui: { resourceUri: 'ui://test/view' },
      'ui/resourceUri': 'ui://test/view',
      'acme/team': 'search',
    });
    expect(tool.withoutUi?._meta).toEqual({ 'acme/team': 'search' });
    const bare = factory.create(new Tools(), 'run', {
      description: 'd',
      _meta: { ui: {} },
      ui: { resourceUri: 'ui://t/v' },
    });
    expect(bare.withoutUi).not.toHaveProperty('_meta');
  });
});

describe('McpToolFactory: output schema and icons', () => {
  it('compiles a result check only for a tool with an output schema', async () => {
    expect(factory.create(new Tools(), 'run', { description: 'd' }).checkOutput).toBeUndefined();
    const tool = factory.create(new Tools(), 'run', {
      description: 'd',
      outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    });
    expect(await tool.checkOutput!({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    expect(await tool.checkOutput!({ n: 1.5 })).toEqual({ ok: false, violations: ['n: must be an integer'] });
  });

  it('refuses, at startup, an output schema it cannot compile, naming the tool', () => {
    expect(() =>
      factory.create(new Tools(), 'run', {
        description: 'd',
        outputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } },
      }),
    ).toThrow(
      /^MCP tool "run" \(Tools\.run\): its outputSchema cannot be checked: \$ref "#\/\$defs\/A" points at nothing/,
    );
  });

  it('lists checked icons after the description, and refuses a bad one naming the tool and the field', () => {
    const icons = [{ src: 'https://example.com/i.png', sizes: ['any'] }];
    const tool = factory.create(new Tools(), 'run', { description: 'd', icons });
    expect(tool.definition.icons).toEqual(icons);
    expect(Object.keys(tool.definition)).toEqual(['name', 'description', 'icons', 'inputSchema']);
    expect(() => factory.create(new Tools(), 'run', { description: 'd', icons: [{ src: 'ftp://x/i.png' }] })).toThrow(
      /^MCP tool "run" \(Tools\.run\): icons\[0\]\.src must be an https: URL/,
    );
  });
});
