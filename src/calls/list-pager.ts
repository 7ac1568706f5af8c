import { Inject, Injectable } from '@nestjs/common';
import type { McpHandler } from '../discovery/mcp-handler.js';
import type { McpRegistry, Registered } from '../discovery/mcp-registry.js';
import { paginate } from '../discovery/paginate.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { AllowAllAccessPolicy } from './allow-all.access-policy.js';
import { McpAccessPolicy, type McpAccessTarget } from './mcp-access-policy.js';
import { ResultStamp } from './result-stamp.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

/** A registered tool, prompt, resource or template, as lists and access checks see it. */
export interface Listed extends Registered {
  readonly handler: McpHandler;
}

/**
 * Answers the list methods and the access checks of the methods that use a listed entry: what the
 * caller may see, one page of it, stamped cacheable. With the default policy (everyone sees
 * everything) the registry's cached definitions go out as they are.
 */
@Injectable()
export class ListPager {
  constructor(
    private readonly access: McpAccessPolicy,
    private readonly stamp: ResultStamp,
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
  ) {}

  /** `key` is the result field (`tools`, `prompts`, `resources`, `resourceTemplates`). */
  page(
    exchange: McpExchange,
    key: string,
    kind: McpAccessTarget['kind'],
    registry: McpRegistry<Listed>,
  ): Record<string, unknown> {
    const definitions =
      this.access instanceof AllowAllAccessPolicy
        ? registry.definitions()
        : registry
            .values()
            .filter((entry) => this.access.isVisible(exchange, target(kind, entry)))
            .map((entry) => entry.definition);
    const page = paginate(definitions, exchange.params['cursor'], this.options.pageSize);
    return this.stamp.cacheable(
      page.nextCursor ? { [key]: page.items, nextCursor: page.nextCursor } : { [key]: page.items },
    );
  }

  /** Throws whatever the access policy throws when the caller may not use `entry`. */
  assertAllowed(exchange: McpExchange, kind: McpAccessTarget['kind'], entry: Listed): void {
    this.access.assertAllowed(exchange, target(kind, entry));
  }
}

function target(kind: McpAccessTarget['kind'], entry: Listed): McpAccessTarget {
  return { kind, name: entry.name, handlerClass: entry.handler.handlerClass, handlerName: entry.handler.handlerName };
}
