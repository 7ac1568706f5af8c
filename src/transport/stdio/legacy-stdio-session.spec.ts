import { PassThrough } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpTool } from '../../decorators/mcp-tool.decorator.js';
import { McpProgressReporter } from '../../calls/mcp-progress-reporter.js';
import { LegacySessions } from '../../legacy/legacy-sessions.js';
import { McpModule } from '../../mcp.module.js';
import type { McpModuleOptions } from '../../mcp.options.js';
import { ElicitationContext } from '../../mrtr/elicitation-context.js';
import type { McpStdioConnection } from './mcp-stdio-connection.js';
import { McpStdioTransport } from './mcp-stdio-transport.js';

beforeEach(() => Logger.overrideLogger(false));

/** The signal of the last `hold` call, to see whether a cancellation reached it. */
let held: AbortSignal | undefined;

/** The signal of the `hold` call under way, once its handler runs. */
async function heldSignal(): Promise<AbortSignal> {
  while (held === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
  return held;
}

@Injectable()
class AskingTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    private readonly progress: McpProgressReporter,
  ) {}

  @McpTool({ name: 'ask', description: 'Asks a yes/no question' })
  async ask(): Promise<string> {
    const answer = await this.elicitation.elicit('Sure?', (s) => s.boolean('sure'));
    return answer.action === 'accept' ? `sure=${answer.content.sure}` : answer.action;
  }

  @McpTool({ name: 'hold', description: 'Runs until cancelled' })
  async hold(): Promise<string> {
    const signal = this.progress.signal!;
    held = signal;
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }
}

/** One stdio connection on in-memory pipes. */
class Pipes {
  readonly input = new PassThrough();
  readonly output = new PassThrough();
  readonly connection: McpStdioConnection;
  private text = '';

  constructor(transport: McpStdioTransport) {
    this.output.on('data', (chunk: Buffer) => (this.text += chunk.toString('utf8')));
    this.connection = transport.listen({ input: this.input, output: this.output });
  }

  send(message: Record<string, unknown>): void {
    this.input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  lines(): any[] {
    return this.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  }

  async waitFor(predicate: (message: any) => boolean): Promise<any> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = this.lines().find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No matching line in: ${this.text}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async end(): Promise<void> {
    this.input.end();
    await this.connection.closed;
  }
}

async function transportFor(
  options: Partial<McpModuleOptions> = {},
): Promise<{ moduleRef: TestingModule; transport: McpStdioTransport }> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'stdio-legacy', version: '1.0.0', http: false, ...options })],
    providers: [AskingTools],
  }).compile();
  await moduleRef.init();
  const transport = McpStdioTransport.fromContext(moduleRef);
  return { moduleRef, transport };
}

describe('a stdio connection whose first message is 2025-era', () => {
  let moduleRef: TestingModule;
  let transport: McpStdioTransport;
  beforeAll(async () => ({ moduleRef, transport } = await transportFor()));
  afterAll(() => moduleRef.close());

  it('initializes, pushes elicitation/create on the output and finishes with the answer from the input', async () => {
    const pipes = new Pipes(transport);
    pipes.send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} } },
    });
    expect((await pipes.waitFor((m) => m.id === 1)).result).toMatchObject({
      protocolVersion: '2025-06-18',
      capabilities: { tools: {}, logging: {} },
    });
    pipes.send({ method: 'notifications/initialized' });
    pipes.send({ id: 2, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const pushed = await pipes.waitFor((m) => m.method === 'elicitation/create');
    expect(pushed.params).toEqual({
      message: 'Sure?',
      requestedSchema: expect.objectContaining({ properties: { sure: { type: 'boolean' } } }),
    });
    pipes.send({ id: pushed.id, result: { action: 'accept', content: { sure: true } } });
    expect((await pipes.waitFor((m) => m.id === 2)).result).toEqual({ content: [{ type: 'text', text: 'sure=true' }] });
    await pipes.end();
    expect(moduleRef.get(LegacySessions).size).toBe(0);
  });

  it('cancels a call on notifications/cancelled and writes no response for it', async () => {
    const pipes = new Pipes(transport);
    pipes.send({ id: 'i', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    await pipes.waitFor((m) => m.id === 'i');
    pipes.send({ id: 'h', method: 'tools/call', params: { name: 'hold' } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    pipes.send({ method: 'notifications/cancelled', params: { requestId: 'h' } });
    pipes.send({ id: 'p', method: 'ping' });
    expect((await pipes.waitFor((m) => m.id === 'p')).result).toEqual({});
    await pipes.end();
    expect(pipes.lines().some((m) => m.id === 'h')).toBe(false);
  });

  it('cancels the call its request id names, as sent: the string "7" is not the call 7', async () => {
    const pipes = new Pipes(transport);
    pipes.send({ id: 'i', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    await pipes.waitFor((m) => m.id === 'i');
    held = undefined;
    pipes.send({ id: 7, method: 'tools/call', params: { name: 'hold' } });
    const signal = await heldSignal();
    pipes.send({ method: 'notifications/cancelled', params: { requestId: '7' } });
    pipes.send({ id: 'p1', method: 'ping' });
    await pipes.waitFor((m) => m.id === 'p1');
    expect(signal.aborted).toBe(false);
    pipes.send({ method: 'notifications/cancelled', params: { requestId: 7 } });
    pipes.send({ id: 'p2', method: 'ping' });
    await pipes.waitFor((m) => m.id === 'p2');
    expect(signal.aborted).toBe(true);
    await pipes.end();
    expect(pipes.lines().some((m) => m.id === 7)).toBe(false);
  });

  it('keeps a connection that opened with 2026-07-28 on that era', async () => {
    const pipes = new Pipes(transport);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    pipes.send({ id: 1, method: 'tools/list', params: { _meta: meta } });
    expect((await pipes.waitFor((m) => m.id === 1)).result.resultType).toBe('complete');
    pipes.send({ id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    expect((await pipes.waitFor((m) => m.id === 2)).error.code).toBe(-32601);
    await pipes.end();
  });
});

describe("a stdio connection on eras: ['modern']", () => {
  it('answers initialize with -32022 naming the supported versions', async () => {
    const { moduleRef, transport } = await transportFor({ eras: ['modern'] });
    const pipes = new Pipes(transport);
    pipes.send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x' } },
    });
    const answer = await pipes.waitFor((m) => m.id === 1);
    expect(answer.error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } });
    await pipes.end();
    await moduleRef.close();
  });
});
