import { fileURLToPath } from 'node:url';
import { Client, type ElicitResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT } from '../stdio/stdio-process.js';

const SAMPLE_STDIO = [
  '--import',
  fileURLToPath(new URL('../stdio/swc-register.mjs', import.meta.url)),
  fileURLToPath(new URL('../../sample/stdio.ts', import.meta.url)),
];
const TEST_MS = 90_000;

describe('the sample over stdio, with the official client on its default (2025-era) settings', () => {
  let client: Client;
  let stderr = '';
  const asked: string[] = [];

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: SAMPLE_STDIO,
      cwd: ROOT,
      stderr: 'pipe',
    });
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'mocapi-legacy-stdio-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async (request): Promise<ElicitResult> => {
      const message = String(request.params.message);
      asked.push(message);
      return message.startsWith('Which time')
        ? { action: 'accept', content: { time: '18:00' } }
        : { action: 'accept', content: { confirm: true } };
    });
    await client.connect(transport);
  }, TEST_MS);

  afterAll(async () => {
    await client?.close();
  });

  it(
    'opens with initialize and books a table through two pushed elicitation/create requests',
    async () => {
      expect(client.getServerVersion()).toMatchObject({ name: 'bistro' });
      // Only the 2025-era initialize announces logging (setLevel is a 2025 method).
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {} });
      const result = await client.callTool({
        name: 'book_table',
        arguments: { date: '2026-12-31', partySize: 2, name: 'Grace', email: 'grace@example.com' },
      });
      if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}\n${stderr}`);
      expect(result.structuredContent).toMatchObject({ date: '2026-12-31', time: '18:00', partySize: 2 });
      expect(asked).toEqual([
        'Which time would you like on 2026-12-31?',
        'Book a table for 2 at 18:00 on 2026-12-31 under Grace?',
      ]);
    },
    TEST_MS,
  );
});
