import { Inject, Injectable } from '@nestjs/common';
import { META_SERVER_INFO } from '../protocol/meta-keys.js';
import type { CacheScope, Implementation } from '../protocol/wire-types.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

type Result = Record<string, unknown>;
/** Any result shape (CallToolResult, GetPromptResult, ...): stamping copies it into a plain record. */
type AnyResult = object;

/** The cache hints of a cacheable result. */
export interface ResultCache {
  readonly ttlMs: number;
  readonly scope: CacheScope;
}

/** A cacheable kind of result that must not be cached this time (a retry): ttl 0, private. */
export const NOT_CACHED: ResultCache = Object.freeze({ ttlMs: 0, scope: 'private' });

/**
 * The 2026-07-28 shape of a result, made in one place (the 2026-07-28 leg, `McpDispatcher`): the
 * methods return their results unstamped, which is the 2025 shape as it is. Stamping adds
 * `resultType` (`complete`, unless the result has its own: `input_required`, `task`), serverInfo
 * in `_meta`, and on a cacheable method's complete result `ttlMs` / `cacheScope`.
 */
@Injectable()
export class ResultStamp {
  readonly serverInfo: Readonly<Implementation>;
  private readonly meta: Readonly<Record<string, unknown>>;

  constructor(@Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions) {
    this.serverInfo = Object.freeze({
      name: options.name,
      version: options.version,
      ...(options.title !== undefined && { title: options.title }),
      ...(options.icons !== undefined && { icons: options.icons }),
    });
    this.meta = Object.freeze({ [META_SERVER_INFO]: this.serverInfo });
  }

  /**
   * A stamped copy of `result`. `cache`: the hints of a cacheable method's result (`true`: the
   * server's `cache` option); absent for every other result.
   */
  stamp(result: AnyResult, cache?: ResultCache | true): Result {
    const stamped = copyOf(result);
    const type = stamped['resultType'];
    if (type !== 'input_required' && type !== 'task') {
      stamped['resultType'] = 'complete';
      if (cache !== undefined) {
        const { ttlMs, scope } = cache === true ? this.options.cache : cache;
        stamped['ttlMs'] = ttlMs;
        stamped['cacheScope'] = scope;
      }
    }
    stamped['_meta'] = this.metaOf(result);
    return stamped;
  }

  private metaOf(result: AnyResult): Record<string, unknown> {
    const own = (result as Result)['_meta'] as Record<string, unknown> | undefined;
    return own ? Object.assign(copyOf(own), this.meta) : this.meta;
  }
}

/**
 * A shallow copy of a record's own enumerable properties (symbols too), to be stamped: what a
 * spread copies, key by key. On Node 20 a spread copy that then gains properties, as every stamped
 * copy does, costs about a microsecond, some 40 times this (bench/RESULTS.md, "Issue 39").
 */
function copyOf(record: object): Result {
  const source = record as Result;
  const copy: Result = {};
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    // A `__proto__` key (a parsed upstream's `_meta`, say) stays data, as a spread keeps it.
    if (key === '__proto__') defineData(copy, key, source[key]);
    else copy[key] = source[key];
  }
  for (const symbol of Object.getOwnPropertySymbols(source)) {
    if (Object.prototype.propertyIsEnumerable.call(source, symbol)) defineData(copy, symbol, source[symbol as never]);
  }
  return copy;
}

function defineData(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
