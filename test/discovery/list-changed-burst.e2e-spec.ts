import { Injectable, Module } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { McpModule, McpRegistrar, McpTool } from '../../src/index.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { rpc } from '../support/raw-mcp.js';
import { openListen, openSse, type SseStream } from '../support/sse-stream.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';

const BURST = 200;

@Injectable()
class PluginTools {
  private loaded = 0;

  constructor(private readonly registrar: McpRegistrar) {}

  /** What a plugin loader does: registers a batch of tools at runtime, one call each. */
  @McpTool({ name: 'load_plugin', description: `Registers ${BURST} tools` })
  loadPlugin(): string {
    const batch = this.loaded++;
    for (let i = 0; i < BURST; i++) {
      this.registrar.addTool(this, 'pluginTool', { name: `plugin_${batch}_${i}`, description: `Plugin tool ${i}` });
    }
    return 'loaded';
  }

  pluginTool(): string {
    return 'ok';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'burst', version: '1.0.0', pageSize: 1000 })],
  providers: [PluginTools],
})
class BurstModule {}

const changes = (stream: SseStream) => stream.messages.filter((m) => m.method === 'notifications/tools/list_changed');

describe.each(ADAPTERS)('a burst of registrations on %s', (adapter) => {
  let server: RunningApp;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    server = await startApp(BurstModule, adapter);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await server.close();
  });

  it('is announced once per stream, in both eras, and the list then holds all of it', async () => {
    const listen = await openListen(server.url, 'sub-1', { toolsListChanged: true });
    streams.push(listen);
    await listen.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    const wire = await LegacyWire.open(server.url);
    const session = await openSse(server.url, undefined, { ...wire.headers(), accept: 'text/event-stream' });
    streams.push(session);

    expect((await rpc(server.url, 'tools/call', { name: 'load_plugin' })).json.result.content[0].text).toBe('loaded');
    await listen.waitFor((m) => m.method === 'notifications/tools/list_changed');
    await session.waitFor((m) => m.method === 'notifications/tools/list_changed');
    await delay(300);
    expect([changes(listen).length, changes(session).length]).toEqual([1, 1]);
    const listed = (await rpc(server.url, 'tools/list')).json.result.tools as Array<{ name: string }>;
    expect(listed.filter((t) => t.name.startsWith('plugin_0_'))).toHaveLength(BURST);

    // A later change is a change of its own.
    await rpc(server.url, 'tools/call', { name: 'load_plugin' });
    const second = (stream: SseStream) =>
      stream.waitFor((m) => m.method === 'notifications/tools/list_changed' && m !== changes(stream)[0]);
    await Promise.all([second(listen), second(session)]);
    await delay(300);
    expect([changes(listen).length, changes(session).length]).toEqual([2, 2]);
  });
});
