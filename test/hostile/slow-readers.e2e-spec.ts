import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { LegacyWire, LEGACY_VERSION } from '../legacy/legacy-wire.js';
import { envelope, mcpHeaders, rpc } from '../support/raw-mcp.js';
import { ADAPTERS } from '../support/start-app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = [
  '--expose-gc',
  '--import',
  fileURLToPath(new URL('../stdio/swc-register.mjs', import.meta.url)),
  fileURLToPath(new URL('./slow-readers.server.ts', import.meta.url)),
];
const MB = 1024 * 1024;
const EVENTS = 100_000;

/** The server in its child process, driven over IPC; its log is everything it printed. */
class ChildServer {
  private nextId = 1;
  private log = '';
  private readonly waiting = new Map<number, (reply: any) => void>();

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly port: number,
  ) {
    child.on('message', (reply: any) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  static start(adapter: string): Promise<ChildServer> {
    const child = spawn(process.execPath, [...SERVER, adapter], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The server did not start:\n${log}`)), 20_000);
      child.once('exit', (code) => reject(new Error(`The server exited (${code}):\n${log}`)));
      child.on('message', function ready(message: any) {
        if (!message.ready) return;
        clearTimeout(timer);
        child.off('message', ready);
        const server = new ChildServer(child, `http://127.0.0.1:${message.port}/mcp`, message.port);
        server.log = log;
        child.stdout!.on('data', (chunk: Buffer) => (server.log += chunk.toString('utf8')));
        child.stderr!.on('data', (chunk: Buffer) => (server.log += chunk.toString('utf8')));
        resolve(server);
      });
    });
  }

  get output(): string {
    return this.log;
  }

  ask(request: Record<string, unknown>, timeoutMs = 20_000): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No answer to ${JSON.stringify(request)}`)), timeoutMs);
      this.waiting.set(id, (reply) => (clearTimeout(timer), resolve(reply)));
      this.child.send({ id, ...request });
    });
  }

  /**
   * What the server's JS holds after a full GC: heap used plus external memory (the Buffers queued
   * on sockets). Not RSS: V8 sizes its heap for the allocation rate it saw, so RSS after a burst of
   * publishing varies by tens of MB between runs whatever the streams hold.
   */
  async heldMemory(): Promise<number> {
    return (await this.ask({ op: 'memory' })).held;
  }

  async run(name: string): Promise<{ sent: number; state: string; abortReason?: string } | undefined> {
    return (await this.ask({ op: 'runs' })).runs[name];
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * A client that sends one HTTP request and never reads the answer: its socket is paused, so the
 * kernel's buffers fill and the server's writes queue up. `ended` settles once the server closed it
 * (seen after {@link resume}, when the client reads what was buffered).
 */
class NonReader {
  readonly ended: Promise<void>;
  private readonly socket: Socket;
  received = 0;

  constructor(port: number, method: 'GET' | 'POST', headers: Record<string, string>, body = '') {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.length));
    this.ended = new Promise((resolve) => this.socket.once('close', () => resolve()));
    this.socket.on('error', () => undefined);
    const head = [`${method} /mcp HTTP/1.1`, 'host: 127.0.0.1', `content-length: ${Buffer.byteLength(body)}`];
    for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
    this.socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
    this.socket.pause();
  }

  /** Waits until the server started answering (a first byte is in the kernel buffer). */
  async opened(): Promise<void> {
    this.socket.resume();
    const deadline = Date.now() + 5000;
    while (this.received === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    this.socket.pause();
    if (this.received === 0) throw new Error('The server never answered');
  }

  resume(): void {
    this.socket.resume();
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Resolves true once `promise` settled, false after `ms`. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const listenBody = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: envelope() },
  });

const floodBody = (tool: string, run: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: run,
    method: 'tools/call',
    params: {
      name: tool,
      arguments: { run },
      _meta: { ...envelope(), progressToken: run, 'io.modelcontextprotocol/logLevel': 'debug' },
    },
  });

/** A 2026-07-28 call of a flooding tool from a client that does not read its answer. */
const floodingCall = (port: number, tool: string, run: string) =>
  new NonReader(port, 'POST', mcpHeaders('tools/call', tool), floodBody(tool, run));

/** tools/list from a client that reads: it must be answered whatever the others do. */
async function toolsListAnswers(url: string): Promise<boolean> {
  const r = await rpc(url, 'tools/list');
  return r.status === 200 && Array.isArray(r.json?.result?.tools) && r.json.result.tools.length > 0;
}

const NO_ERRORS = /\bERROR\b|^\s+at .+:\d+:\d+\)?$/m;

describe.each(ADAPTERS)('Slow readers cannot fill the server (%s)', (adapter) => {
  let server: ChildServer;

  beforeAll(async () => {
    server = await ChildServer.start(adapter);
  }, 30_000);
  afterAll(() => server?.stop());

  it('closes 20 listen streams and a GET stream that do not read through 100,000 list_changed: memory held +50 MB at most', async () => {
    // The same 100,000 events with no stream open first, so that what publishing itself leaves
    // behind the first time (compiled code, caches) is not counted as the streams'.
    await server.ask({ op: 'fire', count: EVENTS }, 30_000);
    const laggards: NonReader[] = [];
    for (let i = 0; i < 20; i++) {
      laggards.push(new NonReader(server.port, 'POST', mcpHeaders('subscriptions/listen'), listenBody(i + 1)));
    }
    const wire = await LegacyWire.open(server.url);
    laggards.push(
      new NonReader(server.port, 'GET', {
        accept: 'text/event-stream',
        'mcp-protocol-version': LEGACY_VERSION,
        'mcp-session-id': wire.sessionId,
      }),
    );
    for (const laggard of laggards) await laggard.opened();
    const before = await server.heldMemory();

    const fired = server.ask({ op: 'fire', count: EVENTS }, 30_000);
    expect(await toolsListAnswers(server.url)).toBe(true);
    await fired;
    const growth = (await server.heldMemory()) - before;

    for (const laggard of laggards) laggard.resume();
    const closed = await Promise.all(laggards.map((laggard) => within(laggard.ended, 10_000)));
    expect(closed).toEqual(laggards.map(() => true));
    expect(growth).toBeLessThanOrEqual(50 * MB);
    expect(await toolsListAnswers(server.url)).toBe(true);
    expect(server.output).not.toMatch(NO_ERRORS);
  }, 45_000);

  it('aborts a tool that floods a non-reading client without waiting: memory held +20 MB at most', async () => {
    const before = await server.heldMemory();
    const client = floodingCall(server.port, 'flood_unawaited', 'modern-unawaited');
    expect(await toolsListAnswers(server.url)).toBe(true);
    expect(await until(async () => (await server.run('modern-unawaited'))?.state === 'ended', 10_000)).toBe(true);
    const growth = (await server.heldMemory()) - before;
    const run = await server.run('modern-unawaited');
    expect(run?.abortReason).toBe('client-behind');
    expect(run!.sent).toBeLessThan(EVENTS);
    expect(growth).toBeLessThanOrEqual(20 * MB);
    client.resume();
    expect(await within(client.ended, 10_000)).toBe(true);
    expect(await toolsListAnswers(server.url)).toBe(true);
    expect(server.output).not.toMatch(NO_ERRORS);
  }, 30_000);

  it('makes a tool that awaits its log messages wait for a non-reading client: memory held +20 MB at most', async () => {
    const before = await server.heldMemory();
    const client = floodingCall(server.port, 'flood_awaited', 'modern-awaited');
    expect(await until(async () => (await server.run('modern-awaited'))?.state === 'waiting', 10_000)).toBe(true);
    // Held at the client's pace: a second later it still waits, far short of its 100,000 messages.
    await new Promise((r) => setTimeout(r, 1000));
    const held = await server.run('modern-awaited');
    expect(held?.state).toBe('waiting');
    expect(held!.sent).toBeLessThan(EVENTS / 2);
    expect(await toolsListAnswers(server.url)).toBe(true);
    expect((await server.heldMemory()) - before).toBeLessThanOrEqual(20 * MB);

    client.destroy();
    expect(await until(async () => (await server.run('modern-awaited'))?.state === 'ended', 10_000)).toBe(true);
    expect((await server.run('modern-awaited'))?.abortReason).toBe('disconnected');
    expect(server.output).not.toMatch(NO_ERRORS);
  }, 30_000);

  it('aborts a tool that floods a non-reading 2025-era POST stream: memory held +20 MB at most', async () => {
    const wire = await LegacyWire.open(server.url);
    const before = await server.heldMemory();
    const client = new NonReader(
      server.port,
      'POST',
      wire.headers(),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'legacy-unawaited',
        method: 'tools/call',
        params: { name: 'flood_unawaited', arguments: { run: 'legacy-unawaited' }, _meta: { progressToken: 'p' } },
      }),
    );
    expect(await until(async () => (await server.run('legacy-unawaited'))?.state === 'ended', 10_000)).toBe(true);
    const growth = (await server.heldMemory()) - before;
    expect((await server.run('legacy-unawaited'))?.abortReason).toBe('client-behind');
    expect(growth).toBeLessThanOrEqual(20 * MB);
    client.resume();
    expect(await within(client.ended, 10_000)).toBe(true);
    expect(await toolsListAnswers(server.url)).toBe(true);
    expect(server.output).not.toMatch(NO_ERRORS);
  }, 30_000);
});
