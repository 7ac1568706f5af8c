import { Inject, Injectable } from '@nestjs/common';
import { META_SERVER_INFO } from '../protocol/meta-keys.js';
import type { Implementation } from '../protocol/wire-types.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

type Result = Record<string, unknown>;
/** Any result shape (CallToolResult, GetPromptResult, ...): stamping copies it into a plain record. */
type AnyResult = object;

/**
 * Stamps what every 2026-07-28 result carries: `resultType`, serverInfo in `_meta`, and on
 * cacheable results `ttlMs` / `cacheScope`. A retry result (one answering a request that carried
 * inputResponses or requestState) is never cacheable.
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
    });
    this.meta = Object.freeze({ [META_SERVER_INFO]: this.serverInfo });
  }

  complete(result: AnyResult): Result {
    const stamped = copyOf(result);
    stamped['resultType'] = 'complete';
    stamped['_meta'] = this.metaOf(result);
    return stamped;
  }

  cacheable(result: AnyResult): Result {
    return this.cached(result, this.options.cache.ttlMs, this.options.cache.scope);
  }

  /** A cacheable kind of result that must not be cached this time (a retry): ttl 0, private. */
  uncacheable(result: AnyResult): Result {
    return this.cached(result, 0, 'private');
  }

  /** Input-required results and task handles (`'task'`) keep their own `resultType` and are never cacheable. */
  stamp(result: AnyResult): Result {
    const type = (result as Result)['resultType'];
    if (type !== 'input_required' && type !== 'task') return this.complete(result);
    const stamped = copyOf(result);
    stamped['_meta'] = this.metaOf(result);
    return stamped;
  }

  private cached(result: AnyResult, ttlMs: number, cacheScope: string): Result {
    const stamped = copyOf(result);
    stamped['resultType'] = 'complete';
    stamped['ttlMs'] = ttlMs;
    stamped['cacheScope'] = cacheScope;
    stamped['_meta'] = this.metaOf(result);
    return stamped;
  }

  private metaOf(result: AnyResult): Record<string, unknown> {
    const own = (result as Result)['_meta'] as Record<string, unknown> | undefined;
    return own ? Object.assign(copyOf(own), this.meta) : this.meta;
  }
}

/** A shallow copy of a record's own enumerable properties, to be stamped. */
function copyOf(record: object): Result {
  return { ...(record as Result) };
}
