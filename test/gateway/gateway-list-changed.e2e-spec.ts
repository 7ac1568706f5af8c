import { McpRegistrar } from '../../src/index.js';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { BookingUpstreamModule } from './support/eliciting-upstream.js';
import { gatewayModule, type UpstreamEra } from './support/gateway-app.js';

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not within the time allowed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The mounted items follow the upstream's: a tool added or removed upstream is added or removed here. */
describe.each<UpstreamEra>(['modern', 'legacy'])(
  'McpGatewayModule: list_changed (upstream connection: %s era)',
  (era) => {
    let upstream: RunningApp;
    let gateway: RunningApp;

    beforeAll(async () => {
      upstream = await startApp(BookingUpstreamModule, 'express');
      gateway = await startApp(gatewayModule(upstream.url, era), 'express');
    });
    afterAll(async () => {
      await gateway?.close();
      await upstream?.close();
    });

    it('adds and removes the tools the upstream adds and removes', async () => {
      const client = await connectElicitingClient(gateway.url);
      const names = async () => (await client.client.listTools()).tools.map((tool) => tool.name);
      try {
        expect(await names()).not.toContain('ref_late');
        upstream.app
          .get(McpRegistrar)
          .addTool({ late: () => 'late answer' }, 'late', { name: 'late', description: 'Added late' });
        await eventually(async () => (await names()).includes('ref_late'));
        expect((await client.client.callTool({ name: 'ref_late', arguments: {} })).content).toEqual([
          { type: 'text', text: 'late answer' },
        ]);
        upstream.app.get(McpRegistrar).removeTool('late');
        await eventually(async () => !(await names()).includes('ref_late'));
      } finally {
        await client.close();
      }
    });
  },
);

/** An upstream that restarts: it is listed again (a renewed connection, a dropped stream, the periodic check). */
describe.each<UpstreamEra>(['modern', 'legacy'])('McpGatewayModule: an upstream restart (%s era)', (era) => {
  it('lists a restarted upstream again: the tool it has now appears', async () => {
    let upstream = await startApp(BookingUpstreamModule, 'express');
    const port = Number(new URL(upstream.url).port);
    const gateway = await startApp(gatewayModule(upstream.url, era), 'express');
    const client = await connectElicitingClient(gateway.url);
    const names = async () => (await client.client.listTools()).tools.map((tool) => tool.name);
    try {
      expect(await names()).not.toContain('ref_fresh');
      await upstream.close();
      upstream = await startApp(BookingUpstreamModule, 'express', { port });
      upstream.app.get(McpRegistrar).addTool({ fresh: () => 'fresh' }, 'fresh', { name: 'fresh', description: 'New' });
      // The old connection is gone: calls fail with the transient error until one reconnects.
      await eventually(async () => {
        const result = await client.client.callTool({ name: 'ref_sleep', arguments: { ms: 0 } }).catch(() => undefined);
        return result !== undefined;
      });
      await eventually(async () => (await names()).includes('ref_fresh'));
    } finally {
      await client.close();
      await gateway.close();
      await upstream.close();
    }
  });
});
