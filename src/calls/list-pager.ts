import { Inject, Injectable } from '@nestjs/common';
import type { McpHandler } from '../discovery/mcp-handler.js';
import type { McpRegistry, Registered } from '../discovery/mcp-registry.js';
import { paginate } from '../discovery/paginate.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { SerializedJson } from '../protocol/wire-json.js';
import { AllowAllAccessPolicy } from './allow-all-access-policy.js';
import { McpAccessPolicy, type McpAccessTarget } from './mcp-access-policy.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';

/** A registered tool, prompt, resource or template, as lists and access checks see it. */
export interface Listed extends Registered {
  readonly handler: McpHandler;
}

/**
 * How a list shows its entries to one kind of client: each entry's definition, another definition,
 * or nothing (undefined). `name` tells the views of one registry apart in the page cache.
 */
export interface ListView<T extends Listed> {
  readonly name: string;
  show(entry: T): object | undefined;
}

/** Every entry as it is registered. */
export const DEFINITIONS_VIEW: ListView<Listed> = { name: 'definitions', show: (entry) => entry.definition };

/** The pages of one registry, valid while the registry's entries are `entries`. */
interface PageCache {
  readonly entries: readonly Listed[];
  readonly pages: Map<string, Readonly<Record<string, unknown>>>;
}

/**
 * Distinct (view, visibility, cursor) pages kept per registry: a policy that shows each caller a
 * different set would otherwise grow the cache without bound; past it, the cache starts over.
 */
const MAX_CACHED_PAGES = 256;

/**
 * Answers the list methods and the access checks of the methods that use a listed entry: what the
 * caller may see, one page of it (the 2026-07-28 leg stamps it cacheable). A page is built and serialized once, then
 * served from a cache until its registry changes: the cache is keyed by the view, the entries the
 * access policy lets the caller see, and the cursor, and dropped when the registry's entries are no
 * longer the ones it was built from.
 */
@Injectable()
export class ListPager {
  private readonly caches = new WeakMap<McpRegistry<Listed>, PageCache>();

  constructor(
    private readonly access: McpAccessPolicy,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
  ) {}

  /** `key` is the result field (`tools`, `prompts`, `resources`, `resourceTemplates`). */
  page<T extends Listed>(
    exchange: McpExchange,
    key: string,
    kind: McpAccessTarget['kind'],
    registry: McpRegistry<T>,
    view: ListView<T> = DEFINITIONS_VIEW,
  ): Record<string, unknown> {
    const entries = registry.values();
    let cache = this.caches.get(registry);
    if (cache?.entries !== entries || cache.pages.size >= MAX_CACHED_PAGES) {
      cache = { entries, pages: new Map() };
      this.caches.set(registry, cache);
    }
    const visible = this.visibleOf(exchange, kind, entries);
    const cursor = exchange.params['cursor'];
    const cacheKey = `${view.name}|${visible?.key ?? '*'}|${typeof cursor === 'string' ? cursor : ''}`;
    let page = cache.pages.get(cacheKey);
    if (!page) {
      // A cursor that is not a string is refused (by paginate, in build), so it never needs a key.
      page = this.build(key, visible?.entries ?? entries, view, cursor);
      cache.pages.set(cacheKey, page);
    }
    // A copy: the layers above may add to or rewrite the result's own fields.
    return { ...page };
  }

  /** Throws whatever the access policy throws when the caller may not use `entry`. */
  assertAllowed(exchange: McpExchange, kind: McpAccessTarget['kind'], entry: Listed): void {
    this.access.assertAllowed(exchange, target(kind, entry));
  }

  /** The entries the caller may see and a key naming that set, or undefined when it sees them all. */
  private visibleOf<T extends Listed>(
    exchange: McpExchange,
    kind: McpAccessTarget['kind'],
    entries: readonly T[],
  ): { entries: readonly T[]; key: string } | undefined {
    if (this.access instanceof AllowAllAccessPolicy) return undefined;
    const shown: T[] = [];
    let key = '';
    entries.forEach((entry, index) => {
      if (!this.access.isVisible(exchange, target(kind, entry))) return;
      shown.push(entry);
      key += `${index.toString(36)},`;
    });
    return shown.length === entries.length ? undefined : { entries: shown, key };
  }

  private build<T extends Listed>(
    key: string,
    entries: readonly T[],
    view: ListView<T>,
    cursor: unknown,
  ): Readonly<Record<string, unknown>> {
    const definitions: object[] = [];
    for (const entry of entries) {
      const definition = view.show(entry);
      if (definition !== undefined) definitions.push(definition);
    }
    const page = paginate(definitions, cursor, this.limits.pageSize);
    const items = new SerializedJson(page.items);
    return Object.freeze(page.nextCursor ? { [key]: items, nextCursor: page.nextCursor } : { [key]: items });
  }
}

function target(kind: McpAccessTarget['kind'], entry: Listed): McpAccessTarget {
  return { kind, name: entry.name, handlerClass: entry.handler.handlerClass, handlerName: entry.handler.handlerName };
}
