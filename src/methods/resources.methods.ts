import { Injectable } from '@nestjs/common';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpError } from '../protocol/mcp.error.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import type { ReadResourceResult, ServerCapabilities } from '../protocol/wire-types.js';
import type { McpMethodGroup, MethodHandler, MethodResult } from '../calls/method-handler.js';
import { MrtrCallRunner } from '../calls/mrtr-call-runner.js';
import { MrtrEngine } from '../mrtr/mrtr-engine.js';
import { toReadResourceResult } from '../calls/resource-result-normalizer.js';
import { ListPager } from '../calls/list-pager.js';

/** resources/list, resources/templates/list and resources/read. */
@Injectable()
export class ResourcesMethods implements McpMethodGroup {
  constructor(
    private readonly registry: McpResourceRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly mrtr: MrtrEngine,
    private readonly lists: ListPager,
  ) {}

  enabled(): boolean {
    return this.registry.size > 0;
  }

  contribute(capabilities: ServerCapabilities): void {
    capabilities.resources = { subscribe: true, listChanged: true };
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.ResourcesList]: (exchange) =>
      this.lists.page(exchange, 'resources', 'resource', this.registry.resources),
    [McpMethod.ResourcesTemplatesList]: (exchange) =>
      this.lists.page(exchange, 'resourceTemplates', 'resource', this.registry.templates),
    [McpMethod.ResourcesRead]: (exchange, inbound) => this.read(exchange, inbound.trace),
  };
  readonly cacheable: readonly string[] = [
    McpMethod.ResourcesList,
    McpMethod.ResourcesTemplatesList,
    McpMethod.ResourcesRead,
  ];

  private async read(exchange: McpExchange, trace?: McpRequestTrace): Promise<MethodResult> {
    const { params } = exchange;
    const uri = params['uri'];
    if (typeof uri !== 'string') throw McpError.invalidParams('params.uri must be a string');
    const resolved = this.registry.resolve(uri);
    if (!resolved) throw McpError.resourceNotFound(uri);
    const { entry, variables } = resolved;
    this.lists.assertAllowed(exchange, 'resource', entry);
    const session = this.calls.begin(exchange, uri, {}, trace);
    const outcome = await this.mrtr.run(session, exchange, entry.handler.invoke, { ...variables, uri }, exchange);
    if (outcome.kind === 'input_required') return outcome.round;
    return withMeta(toReadResourceResult(outcome.value, uri, entry.definition.mimeType), uri, entry.definition._meta);
  }
}

/**
 * The resource's declared `_meta` (e.g. an MCP App's `_meta.ui`: CSP, permissions) on the contents
 * of the URI read, under what the handler's contents set themselves. `ui` is merged key by key: a
 * handler that sets `prefersBorder` must not drop the declared CSP, which hosts read from here.
 */
function withMeta(
  result: ReadResourceResult,
  uri: string,
  meta: Record<string, unknown> | undefined,
): ReadResourceResult {
  if (!meta) return result;
  return {
    ...result,
    contents: result.contents.map((content) =>
      content.uri === uri ? { ...content, _meta: mergedMeta(meta, content._meta) } : content,
    ),
  };
}

function mergedMeta(declared: Record<string, unknown>, own: Record<string, unknown> | undefined) {
  const merged = { ...declared, ...own };
  const [declaredUi, ownUi] = [declared['ui'], own?.['ui']];
  if (isJsonObject(declaredUi) && isJsonObject(ownUi)) merged['ui'] = { ...declaredUi, ...ownUi };
  return merged;
}
