import { Injectable, Module } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { ElicitationContext, McpModule, McpRegistrar, McpTool } from '../src/index.js';
import { type Balancer, startNginx } from './multi-node/nginx-balancer.js';
import { LegacyWire } from './legacy/legacy-wire.js';
import { rpc } from './support/raw-mcp.js';
import { openListen, openSse, type SseStream } from './support/sse-stream.js';
import { ADAPTERS, type RunningApp, startApp } from './support/start-app.js';

/** nginx closes a response that stays silent this long (its `proxy_read_timeout`). */
const PROXY_READ_TIMEOUT_MS = 1000;
/** Our comments come four times as often. */
const KEEP_ALIVE_MS = 250;
/** Longer than the proxy lets a silent stream live. */
const QUIET_MS = 2 * PROXY_READ_TIMEOUT_MS + 500;

@Injectable()
class CatalogTools {
  constructor(
    private readonly registrar: McpRegistrar,
    private readonly elicitation: ElicitationContext,
  ) {}

  @McpTool({ name: 'ask_name', description: 'Asks for a name' })
  async askName(): Promise<string> {
    const answer = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : 'No name';
  }

  @McpTool({ name: 'add_tool', description: 'Registers another tool at runtime' })
  addTool(): string {
    this.registrar.addTool(this, 'later', { name: 'later', description: 'Added at runtime' });
    return 'added';
  }

  later(): string {
    return 'later';
  }
}

function appWith(sseKeepAliveMs: number): unknown {
  @Module({
    imports: [McpModule.forRoot({ name: 'keep-alive', version: '1.0.0', sseKeepAliveMs })],
    providers: [CatalogTools],
  })
  class KeepAliveModule {}
  return KeepAliveModule;
}

/** Whether the stream is still open after `ms` (false once the proxy or the server ended it). */
async function stillOpenAfter(stream: SseStream, ms: number): Promise<boolean> {
  const ended = stream.ended.then(() => 'ended' as const);
  return (await Promise.race([ended, delay(ms, 'open' as const)])) === 'open';
}

describe.each(ADAPTERS)('SSE keep-alive comments through nginx on %s', (adapter) => {
  let kept: RunningApp;
  let silent: RunningApp;
  let keptProxy: Balancer;
  let silentProxy: Balancer;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    kept = await startApp(appWith(KEEP_ALIVE_MS), adapter);
    silent = await startApp(appWith(0), adapter);
    const readTimeout = `${PROXY_READ_TIMEOUT_MS}ms`;
    keptProxy = await startNginx([Number(new URL(kept.url).port)], { readTimeout });
    silentProxy = await startNginx([Number(new URL(silent.url).port)], { readTimeout });
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  afterAll(async () => {
    await Promise.all([keptProxy?.stop(), silentProxy?.stop()]);
    await Promise.all([kept?.close(), silent?.close()]);
  });

  it('an idle subscriptions/listen stream outlives the proxy read timeout and still delivers', async () => {
    const stream = await openListen(keptProxy.url, 'sub-1', { toolsListChanged: true });
    streams.push(stream);
    await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');

    expect(await stillOpenAfter(stream, QUIET_MS)).toBe(true);
    expect(stream.comments.filter((c) => c === 'keep-alive').length).toBeGreaterThanOrEqual(4);

    await rpc(keptProxy.url, 'tools/call', { name: 'add_tool' });
    const changed = await stream.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(changed.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'sub-1' });
  });

  it('without keep-alives (sseKeepAliveMs: 0) the proxy closes the same stream', async () => {
    const stream = await openListen(silentProxy.url, 'sub-1', { toolsListChanged: true });
    streams.push(stream);
    await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');

    expect(await stillOpenAfter(stream, QUIET_MS)).toBe(false);
    expect(stream.comments).toEqual([]);
  });

  it('a 2025-era call waiting for the answer to its pushed question keeps its stream, then completes', async () => {
    const wire = await LegacyWire.open(keptProxy.url);
    const stream = await wire.stream('tools/call', { name: 'ask_name', arguments: {} }, 'call-1');
    streams.push(stream);
    const pushed = await stream.waitFor((m) => m.method === 'elicitation/create');

    expect(await stillOpenAfter(stream, QUIET_MS)).toBe(true);
    expect(stream.comments.filter((c) => c === 'keep-alive').length).toBeGreaterThanOrEqual(4);
    expect((await wire.answer(pushed.id, { action: 'accept', content: { name: 'Ada' } })).status).toBe(202);
    const done = await stream.waitFor((m) => m.id === 'call-1');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
  });

  it("a 2025-era session's GET stream gets the same comments", async () => {
    const wire = await LegacyWire.open(keptProxy.url);
    const stream = await openSse(keptProxy.url, undefined, { ...wire.headers(), accept: 'text/event-stream' });
    streams.push(stream);

    expect(await stillOpenAfter(stream, QUIET_MS)).toBe(true);
    expect(stream.comments.filter((c) => c === 'keep-alive').length).toBeGreaterThanOrEqual(4);
  });
});
