import type { ExecutionContext } from '@nestjs/common';
import { clientRendersApps } from './mcp-apps-support.js';
import { McpExecutionContext } from './mcp-execution-context.js';

const UI = 'io.modelcontextprotocol/ui';

describe('clientRendersApps', () => {
  it.each([
    [{ extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } }, true],
    [{ extensions: { [UI]: { mimeTypes: ['text/uri-list', 'text/html;profile=mcp-app'] } } }, true],
    [{ extensions: { [UI]: { mimeTypes: ['text/html'] } } }, false],
    [{ extensions: { [UI]: {} } }, false],
    [{ extensions: { [UI]: { mimeTypes: 'text/html;profile=mcp-app' } } }, false],
    [{ extensions: { 'io.modelcontextprotocol/tasks': {} } }, false],
    [{ extensions: null }, false],
    [{}, false],
  ])('%j → %s', (clientCapabilities, expected) => {
    expect(clientRendersApps({ clientCapabilities: clientCapabilities as never })).toBe(expected);
  });

  it('McpExecutionContext.rendersApps reads the exchange of the call', () => {
    const context = (clientCapabilities: object) =>
      McpExecutionContext.create({
        getType: () => 'mcp',
        getArgByIndex: (index: number) => (index === 1 ? { clientCapabilities } : undefined),
      } as unknown as ExecutionContext);
    expect(context({ extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } }).rendersApps()).toBe(true);
    expect(context({}).rendersApps()).toBe(false);
  });
});
