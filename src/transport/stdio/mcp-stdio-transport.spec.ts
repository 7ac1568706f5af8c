import { PassThrough } from 'node:stream';
import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { IsNumber, IsString } from 'class-validator';
import { McpTool } from '../../decorators/mcp-tool.decorator.js';
import { McpAccessPolicy } from '../../calls/mcp-access-policy.js';
import { McpClientLogger } from '../../calls/mcp-client-logger.js';
import { McpDispatcher } from '../../dispatch/mcp-dispatcher.js';
import { McpModule } from '../../mcp.module.js';
import { LIMIT_DEFAULTS } from '../../core/mcp-limits.options.js';
import type { ResolvedMcpServerOptions } from '../../core/mcp-server.options.js';
import { INTEGRATION_ACCESS_POLICY } from '../../core/mcp.tokens.js';
import { ElicitationContext } from '../../mrtr/elicitation-context.js';
import { isCallAborted } from '../../protocol/mcp-call-aborted.error.js';
import type { McpExchange } from '../../protocol/mcp-exchange.js';
import { McpHttpChallenge } from '../../protocol/mcp-http-challenge.js';
import type { McpStdioConnection } from './mcp-stdio-connection.js';
import { McpStdioTransport, type McpStdioStreams } from './mcp-stdio-transport.js';

const MAX_LINE = 1024;

// Expected failures (a broken pipe, a failing dispatcher) are logged; keep the test output clean.
beforeEach(() => Logger.overrideLogger(false));

class AddDto {
  @IsNumber() a!: number;
  @IsNumber() b!: number;
}

class EchoDto {
  @IsString() text!: string;
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets a test hold a call open and observe its signal. */
const control = {
  gate: deferred(),
  started: deferred(),
  signals: [] as AbortSignal[],
};

@Injectable()
class StdioSpecTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'add', description: 'Adds two numbers' })
  add(input: AddDto): string {
    return String(input.a + input.b);
  }

  @McpTool({ name: 'echo', description: 'Echoes text' })
  echo(input: EchoDto): string {
    return input.text;
  }

  @McpTool({ name: 'wait', description: 'Returns once the test opens the gate' })
  async wait(_input: unknown, exchange: McpExchange): Promise<string> {
    control.signals.push(exchange.signal);
    control.started.resolve();
    await control.gate.promise;
    return exchange.signal.aborted ? 'aborted' : 'released';
  }

  @McpTool({ name: 'progress', description: 'Reports progress, then answers' })
  progress(_input: unknown, exchange: McpExchange): string {
    for (const progress of [1, 2]) {
      exchange.notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress, total: 2 },
      });
    }
    // Too late to matter: it would arrive after the response.
    setImmediate(() =>
      exchange.notify({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 3 },
      }),
    );
    return 'done';
  }

  @McpTool({ name: 'guarded', description: 'Refused by the HTTP-only access policy' })
  guarded(): string {
    return 'never';
  }

  @McpTool({ name: 'confirm', description: 'Asks for confirmation' })
  async confirm(): Promise<string> {
    const answer = await this.elicitation.elicit('Proceed?', (s) => s.boolean('ok'));
    return answer.action === 'accept' && answer.content.ok ? 'confirmed' : 'not confirmed';
  }
}

/** Stands in for an HTTP-only policy (oauth2 scopes) that refuses with an HTTP challenge. */
class ChallengingPolicy extends McpAccessPolicy {
  isVisible(): boolean {
    return true;
  }
  assertAllowed(_exchange: McpExchange, target: { name: string }): void {
    if (target.name === 'guarded')
      throw new McpHttpChallenge(
        401,
        { 'www-authenticate': 'Bearer' },
        { error: 'invalid_token', error_description: 'A bearer token is required' },
      );
  }
}

@Global()
@Module({
  providers: [{ provide: INTEGRATION_ACCESS_POLICY, useClass: ChallengingPolicy }],
  exports: [INTEGRATION_ACCESS_POLICY],
})
class ChallengingPolicyModule {}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-spec', version: '1.0.0' },
};

const request = (
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: ENVELOPE },
});

const call = (
  id: string | number,
  name: string,
  args: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): string => `${JSON.stringify(request(id, 'tools/call', { name, arguments: args, ...extra }))}\n`;

/** A transport on PassThrough streams that records every byte written to its output. */
class Wire {
  readonly input = new PassThrough();
  readonly output: PassThrough;
  readonly connection: McpStdioConnection;
  private text = '';
  private waiters: Array<() => void> = [];

  constructor(
    transport: McpStdioTransport,
    streams: Partial<McpStdioStreams> & { outputHighWaterMark?: number; consume?: boolean } = {},
  ) {
    this.output = new PassThrough({ highWaterMark: streams.outputHighWaterMark });
    this.connection = transport.listen({ input: this.input, output: this.output, maxLineBytes: streams.maxLineBytes });
    if (streams.consume !== false) this.consume();
  }

  consume(): void {
    this.output.on('data', (chunk: Buffer) => {
      this.text += chunk.toString('utf8');
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /**
   * Reads as a pipe's reader does: later than the write (a `readable` turn), so a line larger than
   * the output's buffer waits in `writableLength` until it is read.
   */
  consumeLater(): void {
    this.output.on('readable', () => {
      for (let chunk: Buffer | null; (chunk = this.output.read() as Buffer | null) !== null;)
        this.text += chunk.toString('utf8');
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(text: string | Buffer): void {
    this.input.write(text);
  }

  /** Every complete line so far, parsed; fails if anything but newline-terminated JSON was written. */
  messages(): any[] {
    if (this.text === '') return [];
    expect(this.text.endsWith('\n')).toBe(true);
    return this.text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line));
  }

  async waitFor(count: number, timeoutMs = 5000): Promise<any[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.completeLines() < count) {
      if (Date.now() > deadline)
        throw new Error(`Expected ${count} line(s), got ${this.completeLines()}: ${this.text}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.messages();
  }

  /** Lets queued work settle, for asserting that nothing (more) was written. */
  async idle(): Promise<void> {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  get raw(): string {
    return this.text;
  }

  private completeLines(): number {
    let count = 0;
    for (const char of this.text) if (char === '\n') count++;
    return count;
  }
}

describe('McpStdioTransport', () => {
  let moduleRef: TestingModule;
  let transport: McpStdioTransport;
  const wires: Wire[] = [];

  const open = (streams?: ConstructorParameters<typeof Wire>[1]): Wire => {
    const wire = new Wire(transport, streams);
    wires.push(wire);
    return wire;
  };

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({ name: 'stdio-spec', version: '0.0.1', http: false, maxBodyBytes: MAX_LINE }),
        ChallengingPolicyModule,
      ],
      providers: [StdioSpecTools],
    }).compile();
    await moduleRef.init();
    transport = moduleRef.get(McpStdioTransport);
  });

  beforeEach(() => {
    control.gate = deferred();
    control.started = deferred();
    control.signals = [];
  });

  afterEach(async () => {
    control.gate.resolve();
    for (const wire of wires.splice(0)) {
      wire.input.end();
      await wire.connection.closed;
      // Nothing but JSON-RPC 2.0 messages, one per line, ever reaches the output.
      for (const message of wire.messages()) expect(message.jsonrpc).toBe('2.0');
    }
  });

  afterAll(async () => {
    await moduleRef.close();
  });

  it('answers a request with one line of JSON carrying its id', async () => {
    const wire = open();
    wire.send(call(1, 'add', { a: 20, b: 22 }));
    const [response] = await wire.waitFor(1);
    expect(response).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', content: [{ type: 'text', text: '42' }] },
    });
    expect(wire.raw).toBe(`${JSON.stringify(response)}\n`);
  });

  it('serves the same methods as HTTP: server/discover and tools/list', async () => {
    const wire = open();
    wire.send(`${JSON.stringify(request('d', 'server/discover'))}\n${JSON.stringify(request('l', 'tools/list'))}\n`);
    const messages = await wire.waitFor(2);
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get('d').result).toMatchObject({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } });
    expect(byId.get('l').result.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['add', 'echo', 'wait']),
    );
  });

  it('answers concurrent requests independently: a fast call is not held up by a slow one', async () => {
    const wire = open();
    wire.send(call('slow', 'wait'));
    await control.started.promise;
    wire.send(call('fast', 'add', { a: 1, b: 2 }));
    const [first] = await wire.waitFor(1);
    expect(first).toMatchObject({ id: 'fast', result: { content: [{ type: 'text', text: '3' }] } });
    control.gate.resolve();
    const [, second] = await wire.waitFor(2);
    expect(second).toMatchObject({ id: 'slow', result: { content: [{ type: 'text', text: 'released' }] } });
  });

  it('reads messages split across chunks, several per chunk, with CRLF and blank lines', async () => {
    const wire = open();
    const one = call(1, 'echo', { text: 'héllo ✓' }).replace('\n', '\r\n');
    const bytes = Buffer.from(`\n  \n${one}${call(2, 'add', { a: 2, b: 2 })}`, 'utf8');
    // Split inside a multi-byte character too.
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    wire.send(bytes.subarray(0, cut));
    wire.send(bytes.subarray(cut));
    const messages = await wire.waitFor(2);
    expect(messages.map((m) => m.result.content[0].text).sort()).toEqual(['4', 'héllo ✓']);
  });

  it('writes nothing for a notification', async () => {
    const wire = open();
    wire.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } })}\n`);
    wire.send(call(2, 'add', { a: 1, b: 1 }));
    await wire.waitFor(1);
    await wire.idle();
    expect(wire.messages()).toEqual([expect.objectContaining({ id: 2 })]);
  });

  it('ignores a JSON-RPC response from the client instead of answering it', async () => {
    const wire = open();
    wire.send(`${JSON.stringify({ jsonrpc: '2.0', id: 5, result: {} })}\n`);
    wire.send(call(6, 'add', { a: 1, b: 1 }));
    await wire.waitFor(1);
    await wire.idle();
    expect(wire.messages()).toEqual([expect.objectContaining({ id: 6 })]);
  });

  it("writes a call's notifications before its response, and drops any sent after it", async () => {
    const wire = open();
    wire.send(call(7, 'progress'));
    const messages = await wire.waitFor(3);
    expect(messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 2 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 2, total: 2 } },
      expect.objectContaining({
        id: 7,
        result: expect.objectContaining({ content: [{ type: 'text', text: 'done' }] }),
      }),
    ]);
    await wire.idle();
    expect(wire.messages()).toHaveLength(3);
  });

  it('answers a malformed line with -32700 and id null, then keeps serving', async () => {
    const wire = open();
    wire.send('{"jsonrpc":"2.0","id":1,"method":\n');
    wire.send(call(2, 'add', { a: 5, b: 5 }));
    const [parseError, response] = await wire.waitFor(2);
    expect(parseError).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    expect(response).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: '10' }] } });
  });

  it('answers bytes that are not UTF-8 with -32700', async () => {
    const wire = open();
    wire.send(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}\n'),
      ]),
    );
    const [parseError] = await wire.waitFor(1);
    expect(parseError.error.code).toBe(-32700);
  });

  it('answers a message that is valid JSON but not a request with -32600', async () => {
    const wire = open();
    wire.send('[1,2]\n42\n');
    const messages = await wire.waitFor(2);
    expect(messages.map((m) => [m.id, m.error.code])).toEqual([
      [null, -32600],
      [null, -32600],
    ]);
  });

  it('answers a line over maxBodyBytes with -32600 as soon as it passes the limit, without buffering it, then keeps serving', async () => {
    const wire = open();
    const chunk = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"pad":"${'x'.repeat(MAX_LINE)}`;
    wire.send(chunk);
    // The line has not ended yet, and is already refused.
    const [tooLarge] = await wire.waitFor(1);
    expect(tooLarge).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining(`${MAX_LINE} bytes`) },
    });
    for (let i = 0; i < 50; i++) wire.send('y'.repeat(MAX_LINE));
    wire.send('"}}\n');
    wire.send(call(2, 'add', { a: 1, b: 2 }));
    const messages = await wire.waitFor(2);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: '3' }] } });
  });

  it('accepts a line of exactly maxBodyBytes', async () => {
    const wire = open();
    const base = call(1, 'echo', { text: '' }).slice(0, -1);
    const line = call(1, 'echo', { text: 'z'.repeat(MAX_LINE - Buffer.byteLength(base)) });
    expect(Buffer.byteLength(line)).toBe(MAX_LINE + 1);
    wire.send(line);
    const [response] = await wire.waitFor(1);
    expect(response).toMatchObject({ id: 1, result: { resultType: 'complete' } });
  });

  it('answers an HTTP challenge from the access policy with -32600 and the request id', async () => {
    const wire = open();
    wire.send(call('g', 'guarded'));
    const [response] = await wire.waitFor(1);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 'g',
      error: { code: -32600, message: 'Request refused: A bearer token is required' },
    });
  });

  it('runs an elicitation round trip (input_required, then the retry with the answer)', async () => {
    const wire = open();
    wire.send(call(1, 'confirm'));
    const [first] = await wire.waitFor(1);
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'elicit-1': { method: 'elicitation/create', params: { message: 'Proceed?' } } },
    });
    wire.send(
      call(
        2,
        'confirm',
        {},
        {
          requestState: first.result.requestState,
          inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
        },
      ),
    );
    const [, second] = await wire.waitFor(2);
    expect(second).toMatchObject({
      id: 2,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'confirmed' }] },
    });
  });

  it('when the input ends, lets calls in flight finish (signal not aborted) before settling closed', async () => {
    const wire = open();
    wire.send(call('slow', 'wait'));
    await control.started.promise;
    wire.input.end();
    let closed = false;
    void wire.connection.closed.then(() => (closed = true));
    await wire.idle();
    expect(closed).toBe(false);
    expect(wire.connection.pending).toBe(1);
    control.gate.resolve();
    await wire.connection.closed;
    expect(control.signals[0]!.aborted).toBe(false);
    expect(wire.messages()).toEqual([
      expect.objectContaining({
        id: 'slow',
        result: expect.objectContaining({ content: [{ type: 'text', text: 'released' }] }),
      }),
    ]);
  });

  it('reads a last line that has no newline when the input ends', async () => {
    const wire = open();
    wire.input.end(call(3, 'add', { a: 3, b: 3 }).trimEnd());
    await wire.connection.closed;
    expect(wire.messages()).toEqual([
      expect.objectContaining({ id: 3, result: expect.objectContaining({ content: [{ type: 'text', text: '6' }] }) }),
    ]);
  });

  it('close() stops reading and aborts the signals of calls in flight', async () => {
    const wire = open();
    wire.send(call('slow', 'wait'));
    await control.started.promise;
    const closing = wire.connection.close();
    expect(control.signals[0]!.aborted).toBe(true);
    wire.send(call('late', 'add', { a: 1, b: 1 }));
    control.gate.resolve();
    await closing;
    await wire.idle();
    expect(wire.messages()).toEqual([
      expect.objectContaining({
        id: 'slow',
        result: expect.objectContaining({ content: [{ type: 'text', text: 'aborted' }] }),
      }),
    ]);
  });

  it('survives a broken output: aborts calls in flight and settles closed', async () => {
    const wire = open();
    wire.send(call('slow', 'wait'));
    await control.started.promise;
    wire.output.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(control.signals[0]!.aborted).toBe(true);
    control.gate.resolve();
    await wire.connection.closed;
  });

  it('stops reading while the output is not drained, and resumes once it is', async () => {
    const wire = open({ outputHighWaterMark: 16, consume: false });
    wire.send(call(1, 'add', { a: 1, b: 1 }));
    await new Promise<void>((resolve) => wire.input.once('pause', () => resolve()));
    expect(wire.input.isPaused()).toBe(true);
    wire.consume();
    await wire.waitFor(1);
    await wire.idle();
    expect(wire.input.isPaused()).toBe(false);
    wire.send(call(2, 'add', { a: 2, b: 2 }));
    const messages = await wire.waitFor(2);
    expect(messages.map((m) => m.id)).toEqual([1, 2]);
  });

  it('rejects a maxLineBytes that is not a positive integer', () => {
    expect(() => transport.listen({ input: new PassThrough(), output: new PassThrough(), maxLineBytes: 0 })).toThrow(
      /positive integer/,
    );
  });
});

describe('McpStdioTransport with a dispatcher that fails unexpectedly', () => {
  it('answers -32603 with the request id and keeps serving', async () => {
    let calls = 0;
    const dispatcher = {
      dispatch: async (message: { id: number }) => {
        calls++;
        if (message.id === 1) throw new Error('boom');
        return { status: 200, response: { jsonrpc: '2.0', id: message.id, result: {} } };
      },
    } as unknown as McpDispatcher;
    const options = {} as ResolvedMcpServerOptions;
    const wire = new Wire(new McpStdioTransport(options, { ...LIMIT_DEFAULTS, maxBodyBytes: MAX_LINE }, dispatcher));
    wire.send('{"jsonrpc":"2.0","id":1,"method":"x"}\n{"jsonrpc":"2.0","id":2,"method":"x"}\n');
    const messages = await wire.waitFor(2);
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(calls).toBe(2);
    wire.input.end();
    await wire.connection.closed;
  });
});

/** What the flooding tools saw. */
const flood = { sent: 0, waiting: false, reason: undefined as string | undefined, done: deferred() };

@Injectable()
class StdioFloodTools {
  constructor(private readonly log: McpClientLogger) {}

  @McpTool({ name: 'flood', description: 'Writes log messages without waiting for the client' })
  flood(_input: unknown, exchange: McpExchange): string {
    for (let i = 0; i < 100_000 && !exchange.signal.aborted; i++) {
      void this.log.info({ i, pad: 'x'.repeat(100) });
      flood.sent++;
    }
    flood.reason = isCallAborted(exchange.signal.reason) ? exchange.signal.reason.reason : undefined;
    flood.done.resolve();
    return 'flooded';
  }

  @McpTool({ name: 'big_log', description: 'Writes one log message larger than the bound' })
  async bigLog(_input: unknown, exchange: McpExchange): Promise<string> {
    await this.log.info({ pad: 'x'.repeat(16 * 64 * 1024) });
    flood.reason = isCallAborted(exchange.signal.reason) ? exchange.signal.reason.reason : undefined;
    flood.done.resolve();
    return 'logged';
  }

  @McpTool({ name: 'flood_awaited', description: 'Writes log messages at the client pace' })
  async floodAwaited(_input: unknown, exchange: McpExchange): Promise<string> {
    for (let i = 0; i < 100_000 && !exchange.signal.aborted; i++) {
      flood.waiting = true;
      await this.log.info({ i, pad: 'x'.repeat(100) });
      flood.waiting = false;
      flood.sent++;
    }
    flood.done.resolve();
    return 'flooded';
  }
}

describe('McpStdioTransport with a client that does not read', () => {
  const BOUND = 64 * 1024;
  let moduleRef: TestingModule;
  let transport: McpStdioTransport;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({
          name: 'stdio-flood',
          version: '0.0.1',
          http: false,
          maxBodyBytes: MAX_LINE,
          limits: { maxStreamBacklogBytes: BOUND },
        }),
      ],
      providers: [StdioFloodTools],
    }).compile();
    await moduleRef.init();
    transport = McpStdioTransport.fromContext(moduleRef);
  });
  afterAll(() => moduleRef.close());
  beforeEach(() => Object.assign(flood, { sent: 0, waiting: false, reason: undefined, done: deferred() }));

  const floodCall = (id: number, name: string) =>
    `${JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' } },
    })}\n`;

  it('aborts a call that keeps writing past limits.maxStreamBacklogBytes (client-behind), and still answers', async () => {
    const wire = new Wire(transport, { outputHighWaterMark: 1024, consume: false });
    wire.send(floodCall(1, 'flood'));
    await flood.done.promise;
    expect(flood.reason).toBe('client-behind');
    expect(flood.sent).toBeLessThan(100_000);
    expect(wire.output.writableLength).toBeLessThan(BOUND + 1024);
    wire.consume();
    const messages = await wire.waitFor(1);
    expect(messages.at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'flooded' }] } });
    wire.input.end();
    await wire.connection.closed;
  });

  it('delivers one message larger than the bound to a client that reads it, without aborting the call', async () => {
    const wire = new Wire(transport, { outputHighWaterMark: 1024, consume: false });
    wire.consumeLater();
    wire.send(floodCall(3, 'big_log'));
    await flood.done.promise;
    expect(flood.reason).toBeUndefined();
    const messages = await wire.waitFor(2);
    expect(messages[0]).toMatchObject({
      method: 'notifications/message',
      params: { data: { pad: expect.any(String) } },
    });
    expect(messages[0].params.data.pad).toHaveLength(16 * BOUND);
    expect(messages[1]).toMatchObject({ id: 3, result: { content: [{ text: 'logged' }] } });
    wire.input.end();
    await wire.connection.closed;
  });

  it('makes a call that awaits its log messages wait for the client', async () => {
    const wire = new Wire(transport, { outputHighWaterMark: 1024, consume: false });
    wire.send(floodCall(2, 'flood_awaited'));
    await wire.idle();
    expect(flood.waiting).toBe(true);
    const held = flood.sent;
    await wire.idle();
    expect(flood.sent).toBe(held);
    expect(held).toBeLessThan(100);
    wire.consume();
    await flood.done.promise;
    expect(flood.sent).toBe(100_000);
    wire.input.end();
    await wire.connection.closed;
  }, 20_000);
});
