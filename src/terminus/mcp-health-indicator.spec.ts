import type { ModuleRef } from '@nestjs/core';
import { HealthIndicatorService } from '@nestjs/terminus';
import { McpPromptRegistry } from '../discovery/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import { resolveMcpOptions } from '../mcp.options.js';
import { McpServerRef } from '../mcp-servers.js';
import type { McpHealthProbe } from '../core/mcp-health-probe.js';
import { McpHealthIndicator } from './mcp-health-indicator.js';

const SECRET = 'unit-secret-of-at-least-32-characters-long';

/** A ModuleRef over one server per entry (`path`, `secrets`), each with empty registries. */
function moduleRefOf(servers: Array<{ path: string; secrets?: string[] }>): ModuleRef {
  const options = servers.map(({ path, secrets }) =>
    resolveMcpOptions({
      name: `unit${path.replaceAll('/', '-')}`,
      version: '0.1.0',
      path,
      eras: ['modern'],
      mrtr: { secrets },
    }),
  );
  const refs = options.map(
    (o) =>
      ({
        path: o.path,
        tools: new McpToolRegistry(),
        prompts: new McpPromptRegistry(),
        resources: new McpResourceRegistry(),
      }) as unknown as McpServerRef,
  );
  return {
    get: (token: unknown) => (token === MCP_OPTIONS ? options : token === McpServerRef ? refs : []),
  } as unknown as ModuleRef;
}

function indicator(servers: Array<{ path: string; secrets?: string[] }>, ...probes: McpHealthProbe[]) {
  return new McpHealthIndicator(new HealthIndicatorService(), moduleRefOf(servers), ...probes);
}

describe('McpHealthIndicator', () => {
  it('is down until the application has bootstrapped (discovery has run), then up', async () => {
    const mcp = indicator([{ path: '/mcp', secrets: [SECRET] }]);
    const before = await mcp.isHealthy();
    expect(before['mcp']).toMatchObject({
      status: 'down',
      reason: 'the registry is not loaded yet: the application is still starting',
    });
    mcp.onApplicationBootstrap();
    expect((await mcp.isHealthy())['mcp']).toEqual({
      status: 'up',
      servers: {
        '/mcp': {
          status: 'up',
          server: 'unit-mcp',
          version: '0.1.0',
          eras: ['modern'],
          keyRing: 'configured',
          tools: 0,
          prompts: 0,
          resources: 0,
          resourceTemplates: 0,
        },
      },
    });
  });

  it('names every problem in one reason, each server by its path, under the key asked for', async () => {
    const down: McpHealthProbe = {
      component: 'redis',
      check: async () => ({ up: false, reason: 'connection closed' }),
    };
    const up: McpHealthProbe = { component: 'taskQueue', check: async () => ({ up: true }) };
    const mcp = indicator([{ path: '/mcp', secrets: [SECRET] }, { path: '/mcp/staff' }], down, up);
    mcp.onApplicationBootstrap();
    const result = await mcp.isHealthy('orders');
    expect(result['orders']).toMatchObject({
      status: 'down',
      servers: { '/mcp': { status: 'up' }, '/mcp/staff': { status: 'down', keyRing: 'random per-process key' } },
      redis: 'down',
      taskQueue: 'up',
    });
    expect(result['orders']!['reason']).toBe(
      '/mcp/staff: no key ring configured (McpModule.forRoot({ mrtr: { secrets } })): tokens sealed here open on no other node and not after a restart; redis is unreachable: connection closed',
    );
  });
});
