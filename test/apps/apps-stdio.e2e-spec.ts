import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT } from '../stdio/stdio-process.js';

const SAMPLE_STDIO = [
  '--import',
  fileURLToPath(new URL('../stdio/swc-register.mjs', import.meta.url)),
  fileURLToPath(new URL('../../sample/stdio.ts', import.meta.url)),
];
const UI = 'io.modelcontextprotocol/ui';
const APP_MIME = 'text/html;profile=mcp-app';

/** The sample over stdio, the client declaring (or not) the extension in its initialize (2025 era). */
async function connect(capabilities: object): Promise<Client> {
  const client = new Client(
    { name: 'mocapi-apps-stdio-e2e', version: '1.0.0' },
    { capabilities: capabilities as never },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: SAMPLE_STDIO,
    cwd: ROOT,
    stderr: 'pipe',
  });
  transport.stderr!.on('data', () => undefined); // the server's log, not needed here
  await client.connect(transport);
  return client;
}

describe('MCP Apps over stdio (2025 era, capabilities from initialize)', () => {
  it('a client that renders apps sees the link; one that does not sees the plain tool', async () => {
    const [apps, plain] = await Promise.all([
      connect({ extensions: { [UI]: { mimeTypes: [APP_MIME] } } }),
      connect({}),
    ]);
    try {
      for (const client of [apps, plain]) {
        expect(client.getServerCapabilities()?.extensions).toMatchObject({ [UI]: { mimeTypes: [APP_MIME] } });
      }
      const linked = (await apps.listTools()).tools.find((t) => t.name === 'find_tables')!;
      expect(linked._meta?.['ui']).toEqual({ resourceUri: 'ui://bistro/seating-picker' });
      const bare = await plain.listTools();
      expect(bare.tools.find((t) => t.name === 'find_tables')!._meta ?? {}).not.toHaveProperty('ui');
      expect(bare.tools.map((t) => t.name)).not.toContain('book_seating');
    } finally {
      await Promise.all([apps.close(), plain.close()]);
    }
  }, 90_000);
});
