import { HealthIndicatorService } from '@nestjs/terminus';
import { McpPromptRegistry } from '../discovery/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { resolveMcpOptions } from '../mcp.options.js';
import type { McpHealthProbe } from '../core/mcp-health-probe.js';
import { McpHealthIndicator } from './mcp-health-indicator.js';

const SECRET = 'unit-secret-of-at-least-32-characters-long';

function indicator(secrets: string[] | undefined, ...probes: McpHealthProbe[]): McpHealthIndicator {
  const options = resolveMcpOptions({ name: 'unit', version: '0.1.0', eras: ['modern'], mrtr: { secrets } });
  return new McpHealthIndicator(
    new HealthIndicatorService(),
    options,
    new McpToolRegistry(),
    new McpPromptRegistry(),
    new McpResourceRegistry(),
    ...probes,
  );
}

describe('McpHealthIndicator', () => {
  it('is down until the application has bootstrapped (discovery has run), then up', async () => {
    const mcp = indicator([SECRET]);
    const before = await mcp.isHealthy();
    expect(before['mcp']).toMatchObject({
      status: 'down',
      reason: 'the registry is not loaded yet: the application is still starting',
    });
    mcp.onApplicationBootstrap();
    expect((await mcp.isHealthy())['mcp']).toMatchObject({ status: 'up', eras: ['modern'], keyRing: 'configured' });
  });

  it('names every problem in one reason, under the key asked for', async () => {
    const down: McpHealthProbe = {
      component: 'redis',
      check: async () => ({ up: false, reason: 'connection closed' }),
    };
    const up: McpHealthProbe = { component: 'taskQueue', check: async () => ({ up: true }) };
    const mcp = indicator(undefined, down, up);
    mcp.onApplicationBootstrap();
    const result = await mcp.isHealthy('orders');
    expect(result['orders']).toMatchObject({ status: 'down', redis: 'down', taskQueue: 'up' });
    expect(result['orders']!['reason']).toBe(
      'no key ring configured (McpModule.forRoot({ mrtr: { secrets } })): tokens sealed here open on no other node and not after a restart; redis is unreachable: connection closed',
    );
  });
});
