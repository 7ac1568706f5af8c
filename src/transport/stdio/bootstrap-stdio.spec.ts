import { PassThrough } from 'node:stream';
import { jest } from '@jest/globals';
import { Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { McpTool } from '../../decorators/mcp-tool.decorator.js';
import { McpModule } from '../../mcp.module.js';
import type { McpExchange } from '../../protocol/mcp-exchange.js';
import { bootstrapStdio } from './bootstrap-stdio.js';

const lifecycle = { destroyed: 0 };

@Injectable()
class BootTools implements OnModuleDestroy {
  @McpTool({ name: 'ping_tool', description: 'Answers pong' })
  ping(): string {
    return 'pong';
  }

  @McpTool({ name: 'stuck', description: 'Never answers, even when aborted' })
  stuck(_input: unknown, exchange: McpExchange): Promise<string> {
    return new Promise(() => void exchange.signal);
  }

  onModuleDestroy(): void {
    lifecycle.destroyed++;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'boot-spec', version: '3.2.1', http: false })], providers: [BootTools] })
class BootModule {}

@Module({})
class EmptyModule {}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (id: number, name: string): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: META } })}\n`;

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return () => text;
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('bootstrapStdio', () => {
  let stdoutWrites: string[];
  let stderrWrites: string[];

  beforeEach(() => {
    lifecycle.destroyed = 0;
    stdoutWrites = [];
    stderrWrites = [];
    // Recorded, not printed: the point is to see where Nest's logs would have gone.
    jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: unknown) => (stdoutWrites.push(String(chunk)), true));
    jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: unknown) => (stderrWrites.push(String(chunk)), true));
  });
  afterEach(() => jest.restoreAllMocks());

  it('serves the module, logs to stderr only, and closes the application when the input ends', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const read = collect(output);
    const server = await bootstrapStdio(BootModule, { input, output, handleSignals: false });

    input.write(call(1, 'ping_tool'));
    await until(() => read().endsWith('\n'));
    expect(JSON.parse(read())).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'pong' }] },
    });

    input.end();
    await server.closed;
    expect(lifecycle.destroyed).toBe(1);
    expect(stdoutWrites).toEqual([]);
    const logs = stderrWrites.join('');
    expect(logs).toContain('MCP server "boot-spec" 3.2.1 listening on stdio');
    expect(logs).toContain('stdin ended: closing');
  });

  it('close() gives calls in flight shutdownTimeoutMs, then closes the application anyway', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    collect(output);
    const server = await bootstrapStdio(BootModule, { input, output, handleSignals: false, shutdownTimeoutMs: 50 });
    input.write(call(1, 'stuck'));
    await until(() => server.connection.pending === 1);
    await server.close();
    await server.closed;
    expect(lifecycle.destroyed).toBe(1);
    expect(stderrWrites.join('')).toContain('1 call(s) still running after 50 ms: closing anyway');
    await server.close();
    expect(lifecycle.destroyed).toBe(1);
  });

  it('honours a list of log levels', async () => {
    const input = new PassThrough();
    const server = await bootstrapStdio(BootModule, {
      input,
      output: new PassThrough(),
      handleSignals: false,
      logger: ['error'],
    });
    input.end();
    await server.closed;
    expect(stderrWrites.join('')).not.toContain('listening on stdio');
  });

  it('redirects console output to stderr while it runs when asked to', async () => {
    const original = console.log;
    const input = new PassThrough();
    const server = await bootstrapStdio(BootModule, {
      input,
      output: new PassThrough(),
      handleSignals: false,
      redirectConsole: true,
    });
    console.log('stray print');
    expect(console.log).not.toBe(original);
    input.end();
    await server.closed;
    expect(console.log).toBe(original);
    expect(stderrWrites.join('')).toContain('stray print');
    expect(stdoutWrites.join('')).not.toContain('stray print');
  });

  it('installs and removes its SIGTERM/SIGINT handlers', async () => {
    const before = [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')];
    const input = new PassThrough();
    const server = await bootstrapStdio(BootModule, { input, output: new PassThrough() });
    expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')]).toEqual([
      before[0]! + 1,
      before[1]! + 1,
    ]);
    input.end();
    await server.closed;
    expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')]).toEqual(before);
  });

  it('says what to import when the module has no McpModule', async () => {
    await expect(
      bootstrapStdio(EmptyModule, { input: new PassThrough(), output: new PassThrough(), handleSignals: false }),
    ).rejects.toThrow(/import McpModule\.forRoot/);
  });
});
