import { McpClientModule } from '../../src/client/index.js';
import { McpGatewayModule } from '../../src/gateway/index.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { healthApp, SECRET } from '../terminus/health.fixtures.js';
import { BookingUpstreamModule } from './support/eliciting-upstream.js';
import { upstreamClientOptions } from './support/gateway-app.js';

interface Health {
  details: { mcp: Record<string, unknown> & { reason?: string } };
}

/** `@nestjs/terminus` reports the upstreams: down, naming the upstream, while one does not answer. */
describe('McpGatewayModule with McpHealthModule', () => {
  let upstream: RunningApp;
  let gateway: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(BookingUpstreamModule, 'express');
    gateway = await startApp(
      healthApp({
        secrets: [SECRET],
        imports: [
          McpClientModule.forRoot({
            servers: {
              ref: { url: upstream.url, retries: 0, timeoutMs: 1000, clientOptions: upstreamClientOptions('modern') },
            },
          }),
          McpGatewayModule.forRoot({ upstreams: [{ client: 'ref', prefix: 'ref' }] }),
        ],
      }),
      'express',
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('is up while the upstream answers, down (503) with its name once it stops', async () => {
    const up = await fetch(`${gateway.origin}/health`);
    expect(up.status).toBe(200);
    expect(((await up.json()) as Health).details.mcp).toMatchObject({ status: 'up', upstreams: 'up' });

    await upstream.close();
    const down = await fetch(`${gateway.origin}/health`);
    expect(down.status).toBe(503);
    const { mcp } = ((await down.json()) as Health).details;
    expect(mcp.upstreams).toBe('down');
    expect(mcp.reason).toMatch(/upstreams is unreachable: ref: /);
  });
});
