import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import {
  INTEGRATION_REDIS_HEALTH_PROBE,
  INTEGRATION_TASK_QUEUE_HEALTH_PROBE,
  type McpHealthProbe,
} from '../core/mcp-health-probe.js';
import { McpPromptRegistry } from '../discovery/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';

/**
 * The readiness of the MCP server for `@nestjs/terminus` health checks, so a load balancer takes a
 * node out when it cannot serve as its peers do. It is down, with a `reason`, when:
 *
 * - no key ring is configured (`mrtr.secrets`): the node seals requestStates and session ids with a
 *   random per-process key, which no other node (and no restart) opens;
 * - the registry is not loaded yet (before the application's bootstrap, when discovery has run);
 * - Redis does not answer, when `McpRedisModule` is imported;
 * - the task queue's Redis does not answer, when `McpTaskQueueModule` is imported.
 *
 * Its details, for dashboards: the server's name and version, the eras it serves, the key ring's
 * state, how many tools, prompts, resources and resource templates are registered, and the state of
 * each dependency checked. Import `McpHealthModule` and use it in a terminus health check:
 *
 * ```ts
 * @Controller('health')
 * export class HealthController {
 *   constructor(
 *     private readonly health: HealthCheckService,
 *     private readonly mcp: McpHealthIndicator,
 *   ) {}
 *
 *   @Get()
 *   @HealthCheck()
 *   check() {
 *     return this.health.check([() => this.mcp.isHealthy('mcp')]);
 *   }
 * }
 * ```
 *
 * @publicApi
 */
@Injectable()
export class McpHealthIndicator implements OnApplicationBootstrap {
  private loaded = false;
  private readonly probes: readonly McpHealthProbe[];

  /** @internal Nest builds it. */
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    @Optional() @Inject(INTEGRATION_REDIS_HEALTH_PROBE) redis?: McpHealthProbe,
    @Optional() @Inject(INTEGRATION_TASK_QUEUE_HEALTH_PROBE) taskQueue?: McpHealthProbe,
  ) {
    this.probes = [redis, taskQueue].filter((probe) => probe !== undefined);
  }

  /** Every module's init hooks, discovery's included, have run by now. */
  onApplicationBootstrap(): void {
    this.loaded = true;
  }

  /**
   * The server's state under `key` (default `'mcp'`): `up`, or `down` with a `reason` naming
   * every problem found; the details are there either way.
   */
  async isHealthy<const Key extends string = 'mcp'>(key: Key = 'mcp' as Key): Promise<HealthIndicatorResult<Key>> {
    const problems: string[] = [];
    const keyRing = (this.options.mrtr.secrets?.length ?? 0) > 0 ? 'configured' : 'random per-process key';
    if (keyRing !== 'configured') {
      problems.push(
        'no key ring configured (McpModule.forRoot({ mrtr: { secrets } })): tokens sealed here open on no other node and not after a restart',
      );
    }
    if (!this.loaded) problems.push('the registry is not loaded yet: the application is still starting');
    const dependencies: Record<string, 'up' | 'down'> = {};
    const results = await Promise.all(this.probes.map(async (probe) => ({ probe, result: await probe.check() })));
    for (const { probe, result } of results) {
      dependencies[probe.component] = result.up ? 'up' : 'down';
      if (!result.up) problems.push(`${probe.component} is unreachable: ${result.reason}`);
    }
    const details = {
      server: this.options.name,
      version: this.options.version,
      eras: (['modern', 'legacy'] as const).filter((era) => this.options.eras[era]),
      keyRing,
      tools: this.tools.size,
      prompts: this.prompts.size,
      resources: this.resources.resources.size,
      resourceTemplates: this.resources.templates.size,
      ...dependencies,
    };
    const session = this.indicators.check(key);
    return problems.length === 0 ? session.up(details) : session.down({ ...details, reason: problems.join('; ') });
  }
}
