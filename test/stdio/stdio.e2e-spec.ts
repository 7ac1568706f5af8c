import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { killServers, ROOT, SERVER_ARGS, spawnServer, TEE } from './stdio-process.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (id: number | string, name: string, args: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } })}\n`;

// Each spawn transpiles src with SWC and boots Nest; the official client spawns twice (probe, session).
const STARTUP_MS = 60_000;
const TEST_MS = 90_000;

describe('the official v2 client over stdio', () => {
  let client: Client;
  let stderr = '';
  const clientErrors: Error[] = [];
  const questions: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'mocapi-stdio-'));
  const stdoutCopy = join(dir, 'stdout');

  beforeAll(async () => {
    // The server runs under a tee that keeps a copy of its stdout: the client silently skips lines
    // that are not JSON, so only the copy can show that nothing else was written.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [TEE, stdoutCopy, process.execPath, ...SERVER_ARGS],
      cwd: ROOT,
      stderr: 'pipe',
    });
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    client = new Client(
      { name: 'mocapi-stdio-e2e', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } as never, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    // Anything on stdout that is not a JSON-RPC message for this client lands here.
    client.onerror = (error) => clientErrors.push(error);
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push((request.params as { message: string }).message);
      return { action: 'accept', content: { ok: true } };
    });
    // The client probes server/discover on a short-lived sibling process, then starts the session
    // process; the first request waits for that one to boot, so warm it up here.
    await client.connect(transport);
    await client.listTools();
  }, TEST_MS);

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('discovers the server', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'stdio-e2e', version: '2.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
  });

  it('lists the tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'chatty', 'confirm', 'tally', 'transport_kind']);
    expect(tools.find((t) => t.name === 'add')?.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
  });

  it('calls tools, over the stdio transport', async () => {
    const sum = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(sum.content).toEqual([{ type: 'text', text: '42' }]);
    const kind = await client.callTool({ name: 'transport_kind', arguments: {} });
    expect(kind.content).toEqual([{ type: 'text', text: 'stdio' }]);
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'x' } });
    expect(invalid.isError).toBe(true);
  });

  it('runs concurrent calls on the one pipe', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.callTool({ name: 'add', arguments: { a: i, b: 100 } })),
    );
    expect(results.map((r) => (r.content as Array<{ text: string }>)[0]!.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => String(i + 100)),
    );
  });

  it('completes an elicitation round: the client answers elicitation/create and retries with the answer', async () => {
    const result = await client.callTool({ name: 'confirm', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'confirmed' }]);
    expect(questions).toEqual(['Proceed?']);
  });

  it('keeps console output of a tool off stdout', async () => {
    const result = await client.callTool({ name: 'chatty', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'said hello' }]);
    await waitFor(() => stderr.includes('chatty says hello on console.info'));
    expect(stderr).toContain('chatty says hello on console.log');
  });

  it('wrote nothing but JSON-RPC messages to stdout, one per line', () => {
    const written = readFileSync(stdoutCopy, 'utf8');
    expect(written.endsWith('\n')).toBe(true);
    const messages = written
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as { jsonrpc?: string });
    // At least: tools/list twice, sixteen tools/call (the elicitation one twice).
    expect(messages.length).toBeGreaterThanOrEqual(18);
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    expect(clientErrors).toEqual([]);
  });

  it('wrote the logs to stderr', () => {
    expect(stderr).toContain('[NestFactory] Starting Nest application...');
    expect(stderr).toContain('[McpStdio] MCP server "stdio-e2e" 2.0.0 listening on stdio');
    expect(stderr).toContain('[StdioTools] add(20, 22)');
  });
});

describe('a stdio server process on the raw wire', () => {
  afterEach(() => killServers());

  it(
    'answers each line, survives bad input, writes only JSON-RPC lines, and exits 0 when stdin ends',
    async () => {
      const server = spawnServer();
      await server.waitForStderr('listening on stdio', STARTUP_MS);
      server.child.stdin.write('this is not json\n');
      server.child.stdin.write(
        `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"pad":"${'x'.repeat(5000)}"}}\n`,
      );
      server.child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })}\n`,
      );
      server.child.stdin.write(call(1, 'chatty'));
      server.child.stdin.write(call(2, 'add', { a: 1, b: 2 }));
      const lines = await server.waitForLines(4);
      server.child.stdin.end();
      expect(await server.exited).toEqual({ code: 0, signal: null });

      expect(server.stdout().endsWith('\n')).toBe(true);
      const messages = server
        .stdout()
        .slice(0, -1)
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(messages).toHaveLength(4);
      expect(lines).toHaveLength(4);
      for (const message of messages) expect(message.jsonrpc).toBe('2.0');
      const errors = messages.filter((m) => m.error).map((m) => [m.id, m.error.code]);
      expect(errors).toEqual([
        [null, -32700],
        [null, -32600],
      ]);
      const results = Object.fromEntries(messages.filter((m) => m.result).map((m) => [m.id, m.result.content[0].text]));
      expect(results).toEqual({ 1: 'said hello', 2: '3' });
      expect(server.stderr()).toContain('chatty says hello on console.log');
      expect(server.stderr()).toContain('stdin ended: closing');
    },
    TEST_MS,
  );

  it(
    'closes gracefully on SIGTERM and ends with that signal',
    async () => {
      const server = spawnServer();
      await server.waitForStderr('listening on stdio', STARTUP_MS);
      server.child.stdin.write(call(1, 'add', { a: 2, b: 2 }));
      await server.waitForLines(1);
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: null, signal: 'SIGTERM' });
      expect(server.stderr()).toContain('SIGTERM received: closing');
      expect(JSON.parse(server.stdout())).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: '4' }] } });
    },
    TEST_MS,
  );
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
