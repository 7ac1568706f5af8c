import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import {
  INTEGRATION_GATEWAY_HEALTH_PROBE,
  INTEGRATION_REDIS_HEALTH_PROBE,
  INTEGRATION_TASK_QUEUE_HEALTH_PROBE,
  type McpHealthProbe,
} from '../core/mcp-health-probe.js';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';
import { McpServers } from '../mcp-servers.js';

/** What the health details say of one server (under its path in `servers`). */
interface ServerHealth {
  readonly status: 'up' | 'down';
  readonly server: string;
  readonly version: string;
  readonly eras: Array<'modern' | 'legacy'>;
  readonly keyRing: 'configured' | 'random per-process key';
  readonly tools: number;
  readonly prompts: number;
  readonly resources: number;
  readonly resourceTemplates: number;
}

/**
 * The readiness of the application's MCP servers for `@nestjs/terminus` health checks, so a load
 * balancer takes a node out when it cannot serve as its peers do. It is down, with a `reason`,
 * when:
 *
 * - a server has no key ring configured (`mrtr.secrets`): the node seals its requestStates and
 *   session ids with a random per-process key, which no other node (and no restart) opens;
 * - the registries are not loaded yet (before the application's bootstrap, when discovery has run);
 * - Redis does not answer, when `McpRedisModule` is imported;
 * - the task queue's Redis does not answer, when `McpTaskQueueModule` is imported;
 * - an upstream of `McpGatewayModule` is not mounted or does not answer ping (`upstreams`).
 *
 * Its details, for dashboards: `servers`, every MCP server of the application by its path (each
 * `McpModule.forRoot`), each with its `status`, name and version, the eras it serves, its key
 * ring's state and how many tools, prompts, resources and resource templates it registers; and the
 * state of each dependency checked. The `reason` names the server of each problem by its path.
 * Import `McpHealthModule` and use it in a terminus health check:
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
  private readonly servers: McpServers;

  /** @internal Nest builds it. */
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly moduleRef: ModuleRef,
    @Optional() @Inject(INTEGRATION_REDIS_HEALTH_PROBE) redis?: McpHealthProbe,
    @Optional() @Inject(INTEGRATION_TASK_QUEUE_HEALTH_PROBE) taskQueue?: McpHealthProbe,
    @Optional() @Inject(INTEGRATION_GATEWAY_HEALTH_PROBE) gateway?: McpHealthProbe,
  ) {
    this.probes = [redis, taskQueue, gateway].filter((probe) => probe !== undefined);
    this.servers = new McpServers(moduleRef);
  }

  /** Every module's init hooks, discovery's included, have run by now. */
  onApplicationBootstrap(): void {
    this.loaded = true;
  }

  /**
   * The servers' state under `key` (default `'mcp'`): `up`, or `down` with a `reason` naming
   * every problem found; the details are there either way.
   */
  async isHealthy<const Key extends string = 'mcp'>(key: Key = 'mcp' as Key): Promise<HealthIndicatorResult<Key>> {
    const problems: string[] = [];
    if (!this.loaded) problems.push('the registry is not loaded yet: the application is still starting');
    const servers: Record<string, ServerHealth> = {};
    for (const options of this.options()) {
      const health = this.serverHealth(options);
      servers[options.path] = health;
      if (health.keyRing !== 'configured') {
        problems.push(
          `${options.path}: no key ring configured (McpModule.forRoot({ mrtr: { secrets } })): tokens sealed here open on no other node and not after a restart`,
        );
      }
    }
    const dependencies: Record<string, 'up' | 'down'> = {};
    const results = await Promise.all(this.probes.map(async (probe) => ({ probe, result: await probe.check() })));
    for (const { probe, result } of results) {
      dependencies[probe.component] = result.up ? 'up' : 'down';
      if (!result.up) problems.push(`${probe.component} is unreachable: ${result.reason}`);
    }
    const details = { servers, ...dependencies };
    const session = this.indicators.check(key);
    return problems.length === 0 ? session.up(details) : session.down({ ...details, reason: problems.join('; ') });
  }

  /** The resolved options of every server of the application, in the order their modules were created. */
  private options(): ResolvedMcpOptions[] {
    return this.moduleRef.get<symbol, ResolvedMcpOptions>(MCP_OPTIONS, { strict: false, each: true });
  }

  private serverHealth(options: ResolvedMcpOptions): ServerHealth {
    const { tools, prompts, resources } = this.servers.get(options.path);
    const keyRing = (options.mrtr.secrets?.length ?? 0) > 0 ? 'configured' : 'random per-process key';
    return {
      status: this.loaded && keyRing === 'configured' ? 'up' : 'down',
      server: options.name,
      version: options.version,
      eras: (['modern', 'legacy'] as const).filter((era) => options.eras[era]),
      keyRing,
      tools: tools.size,
      prompts: prompts.size,
      resources: resources.resources.size,
      resourceTemplates: resources.templates.size,
    };
  }
}
