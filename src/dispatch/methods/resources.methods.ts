import { Inject, Injectable } from '@nestjs/common';
import { McpResourceRegistry } from '../../discovery/mcp-resource.registry.js';
import { paginate } from '../../discovery/paginate.js';
import type { RegisteredResource, RegisteredResourceTemplate } from '../../discovery/registered-resource.js';
import { MCP_OPTIONS } from '../../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../../mcp.options.js';
import { McpError } from '../../protocol/mcp.error.js';
import type { McpExchange } from '../../protocol/mcp-exchange.js';
import { McpMethod } from '../../protocol/mcp-methods.js';
import type { ServerCapabilities } from '../../protocol/wire-types.js';
import { AllowAllAccessPolicy } from '../allow-all.access-policy.js';
import { McpAccessPolicy, type McpAccessTarget } from '../mcp-access-policy.js';
import type { McpMethodGroup, MethodHandler } from '../method-handler.js';
import { MrtrCallRunner } from '../mrtr-call.runner.js';
import { toReadResourceResult } from '../resource-result.normalizer.js';
import { ResultStamp } from '../result-stamp.js';
import { isInputRequiredResult } from '../tool-result.normalizer.js';

type AnyResource = RegisteredResource | RegisteredResourceTemplate;

/** resources/list, resources/templates/list and resources/read. */
@Injectable()
export class ResourcesMethods implements McpMethodGroup {
  constructor(
    private readonly registry: McpResourceRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly access: McpAccessPolicy,
    private readonly stamp: ResultStamp,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  enabled(): boolean {
    return this.registry.size > 0;
  }

  contribute(capabilities: ServerCapabilities): void {
    capabilities.resources = { subscribe: true, listChanged: true };
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.ResourcesList]: (exchange) =>
      this.list(exchange, this.registry.resources.values(), 'resources', (r) => r.definition),
    [McpMethod.ResourcesTemplatesList]: (exchange) =>
      this.list(exchange, this.registry.templates.values(), 'resourceTemplates', (t) => t.definition),
    [McpMethod.ResourcesRead]: (exchange) => this.read(exchange),
  };

  private list<T extends AnyResource>(exchange: McpExchange, entries: readonly T[], key: string, definition: (entry: T) => object): Record<string, unknown> {
    const visible = this.access instanceof AllowAllAccessPolicy ? entries : entries.filter((e) => this.access.isVisible(exchange, accessTarget(e)));
    const page = paginate(visible, exchange.params['cursor'], this.options.pageSize);
    const items = page.items.map(definition);
    return this.stamp.cacheable(page.nextCursor ? { [key]: items, nextCursor: page.nextCursor } : { [key]: items });
  }

  private async read(exchange: McpExchange): Promise<Record<string, unknown>> {
    const { params } = exchange;
    const uri = params['uri'];
    if (typeof uri !== 'string') throw McpError.invalidParams('params.uri must be a string');
    const resolved = this.registry.resolve(uri);
    if (!resolved) throw McpError.invalidParams(`Resource not found: ${uri}`, { uri });
    const { entry, variables } = resolved;
    this.access.assertAllowed(exchange, accessTarget(entry));
    const session = this.calls.begin(exchange, uri, {});
    const value = await this.calls.invoke(session, exchange, () => entry.handler.invoke({ ...variables, uri }, exchange));
    if (isInputRequiredResult(value)) return this.stamp.stamp({ ...value });
    const result = { ...toReadResourceResult(value, uri, entry.definition.mimeType) };
    const isRetry = params['requestState'] !== undefined || params['inputResponses'] !== undefined;
    return isRetry ? this.stamp.uncacheable(result) : this.stamp.cacheable(result);
  }
}

function accessTarget(entry: AnyResource): McpAccessTarget {
  return { kind: 'resource', name: entry.name, handlerClass: entry.handler.handlerClass, handlerName: entry.handler.handlerName };
}
