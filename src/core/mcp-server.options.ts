import type { CacheScope } from '../protocol/wire-types.js';
import type { McpProtocolEra } from '../protocol/protocol-era.js';
import { positiveInteger } from './option-checks.js';

/** Cache hints stamped on cacheable results (server/discover, list results, resources/read). */
export interface McpCacheOptions {
  /** Default 0: clients should not reuse results. */
  ttlMs?: number;
  /** Default 'private'. */
  scope?: CacheScope;
}

/** What the server says about itself and the bounds every transport applies (the top level of `McpModule.forRoot`). */
export interface McpServerOptions {
  /** serverInfo.name */
  name: string;
  /** serverInfo.version */
  version: string;
  /** serverInfo.title */
  title?: string;
  /**
   * Path of the Streamable HTTP endpoint, and the server's name among the several of one
   * application: stdio, `McpTestClient`, `McpServers.get` and the `server` option of the content
   * integrations (skills, apps) name a server by it. Default '/mcp'.
   */
  path?: string;
  /** Instructions returned by server/discover. */
  instructions?: string;
  /** Entries per page of every list result. Default 1000. */
  pageSize?: number;
  /** Cache hints for cacheable results. */
  cache?: McpCacheOptions;
  /** Largest request body (a stdio line) accepted, in bytes; larger gets HTTP 413. Default 4194304 (4 MiB). */
  maxBodyBytes?: number;
  /**
   * Deepest nesting accepted in a request's params (arguments, answers, `_meta`) and in a client's
   * answers to pushed requests; deeper gets -32602 before anything reads it. Default 32.
   */
  maxJsonDepth?: number;
  /** A tool call that runs longer is answered with an `isError` result and its signal is aborted, in ms. Default: no limit. */
  toolTimeoutMs?: number;
  /**
   * Which protocol eras the endpoint serves: `'modern'` (2026-07-28) and `'legacy'` (2025-11-25,
   * 2025-06-18 and 2025-03-26 clients that open with `initialize`). Default both. Without
   * `'legacy'`, `initialize` is refused with -32022 (HTTP 400) listing the supported versions.
   */
  eras?: McpProtocolEra[];
  /**
   * The modules whose providers and controllers this server serves (their `@McpTool`, `@McpPrompt`,
   * `@McpResource` and `@McpResourceTemplate` methods). Default: the whole application. With
   * several `McpModule.forRoot` imports (each at its own `path`), give each its modules. A server
   * with `include` also seals its requestState and 2025-era session ids for its path only, so
   * another server of the same application refuses them.
   */
  include?: Function[];
}

/** {@link McpServerOptions} after defaults were applied. */
export interface ResolvedMcpServerOptions {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly path: string;
  readonly instructions?: string;
  readonly pageSize: number;
  readonly cache: Readonly<Required<McpCacheOptions>>;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly toolTimeoutMs?: number;
  readonly eras: { readonly modern: boolean; readonly legacy: boolean };
  readonly include?: readonly Function[];
}

/** Injection token of the {@link ResolvedMcpServerOptions}. */
export const MCP_SERVER_OPTIONS = Symbol.for('mocapi:options:server');

/** Applies the defaults of the server section; each problem found is added to `problems`. */
export function resolveServerOptions(o: Partial<McpServerOptions>, problems: string[]): ResolvedMcpServerOptions {
  if (typeof o.name !== 'string' || o.name.trim() === '') {
    problems.push(
      "`name` is required: the server name reported in serverInfo, e.g. McpModule.forRoot({ name: 'orders', version: '1.0.0' })",
    );
  }
  if (typeof o.version !== 'string' || o.version.trim() === '') {
    problems.push("`version` is required: the server version reported in serverInfo, e.g. '1.0.0'");
  }
  const path = o.path ?? '/mcp';
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) {
    problems.push("`path` must be an absolute URL path such as '/mcp'");
  }
  for (const key of ['pageSize', 'maxBodyBytes', 'maxJsonDepth', 'toolTimeoutMs'] as const) {
    if (o[key] !== undefined && !positiveInteger(o[key])) problems.push(`\`${key}\` must be a positive integer`);
  }
  const ttlMs = o.cache?.ttlMs ?? 0;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) problems.push('`cache.ttlMs` must be an integer >= 0');
  const scope = o.cache?.scope ?? 'private';
  if (scope !== 'public' && scope !== 'private') problems.push("`cache.scope` must be 'public' or 'private'");
  const eras = o.eras ?? ['modern', 'legacy'];
  if (!Array.isArray(eras) || eras.length === 0 || eras.some((era) => era !== 'modern' && era !== 'legacy')) {
    problems.push("`eras` must be a non-empty array of 'modern' and/or 'legacy' (default: both)");
  }
  if (o.include !== undefined && (!Array.isArray(o.include) || o.include.some((m) => typeof m !== 'function'))) {
    problems.push('`include` must be an array of module classes');
  }
  return {
    name: o.name!,
    version: o.version!,
    title: o.title,
    path: typeof path === 'string' && path.length > 1 ? path.replace(/\/+$/, '') : path,
    instructions: o.instructions,
    pageSize: o.pageSize ?? 1000,
    cache: { ttlMs, scope },
    maxBodyBytes: o.maxBodyBytes ?? 4 * 1024 * 1024,
    maxJsonDepth: o.maxJsonDepth ?? 32,
    toolTimeoutMs: o.toolTimeoutMs,
    eras: {
      modern: Array.isArray(eras) && eras.includes('modern'),
      legacy: Array.isArray(eras) && eras.includes('legacy'),
    },
    ...(o.include !== undefined && { include: Object.freeze([...o.include]) }),
  };
}
