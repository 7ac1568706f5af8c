import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';
import { META_SERVER_INFO } from '../protocol/meta-keys.js';
import type { Implementation } from '../protocol/wire-types.js';

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

  constructor(@Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions) {
    this.serverInfo = Object.freeze({
      name: options.name,
      version: options.version,
      ...(options.title !== undefined && { title: options.title }),
    });
    this.meta = Object.freeze({ [META_SERVER_INFO]: this.serverInfo });
  }

  complete(result: AnyResult): Result {
    return { ...result, resultType: 'complete', _meta: this.metaOf(result) };
  }

  cacheable(result: AnyResult): Result {
    return {
      ...result,
      resultType: 'complete',
      ttlMs: this.options.cache.ttlMs,
      cacheScope: this.options.cache.scope,
      _meta: this.metaOf(result),
    };
  }

  /** A cacheable kind of result that must not be cached this time (a retry): ttl 0, private. */
  uncacheable(result: AnyResult): Result {
    return { ...result, resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: this.metaOf(result) };
  }

  /** Input-required results and task handles (`'task'`) keep their own `resultType` and are never cacheable. */
  stamp(result: AnyResult): Result {
    const type = (result as Result)['resultType'];
    return type === 'input_required' || type === 'task'
      ? { ...result, _meta: this.metaOf(result) }
      : this.complete(result);
  }

  private metaOf(result: AnyResult): Record<string, unknown> {
    const own = (result as Result)['_meta'] as Record<string, unknown> | undefined;
    return own ? { ...own, ...this.meta } : this.meta;
  }
}
