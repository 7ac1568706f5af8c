import type { CacheScope } from '../protocol/wire-types.js';
import type { McpProtocolEra } from '../protocol/protocol-era.js';
import { LIMIT_DEFAULTS, type ResolvedMcpLimits } from './mcp-limits.options.js';
import { NON_EMPTY_STRING, NON_NEGATIVE_INTEGER, oneOf, POSITIVE_INTEGER, STRING } from './option-checks.js';
import {
  check,
  defineSection,
  movedTo,
  nested,
  option,
  optionWith,
  required,
  type ResolvedSection,
  resolveSection,
  type SectionOptions,
} from './option-section.js';

/** Cache hints stamped on cacheable results (server/discover, list results, resources/read). */
export const CACHE = defineSection({
  /** Default 0: clients should not reuse results. */
  ttlMs: option(NON_NEGATIVE_INTEGER, 0),
  /** Default 'private'. */
  scope: option(oneOf<CacheScope>(['public', 'private']), 'private'),
});

/** Cache hints stamped on cacheable results (server/discover, list results, resources/read). */
export type McpCacheOptions = SectionOptions<typeof CACHE>;

const ERAS = check(
  (value): value is McpProtocolEra[] =>
    Array.isArray(value) && value.length > 0 && value.every((era) => era === 'modern' || era === 'legacy'),
  "must be a non-empty array of 'modern' and/or 'legacy' (default: both)",
);

const URL_PATH = check(
  (value): value is string => typeof value === 'string' && value.startsWith('/') && !/[?#\s]/.test(value),
  "must be an absolute URL path such as '/mcp'",
);

const MODULES = check(
  (value): value is Function[] => Array.isArray(value) && value.every((m) => typeof m === 'function'),
  'must be an array of module classes',
);

/** What the server says about itself (the top level of `McpModule.forRoot`). */
export const SERVER = defineSection({
  /** serverInfo.name */
  name: required(
    NON_EMPTY_STRING,
    "`name` is required: the server name reported in serverInfo, e.g. McpModule.forRoot({ name: 'orders', version: '1.0.0' })",
  ),
  /** serverInfo.version */
  version: required(NON_EMPTY_STRING, "`version` is required: the server version reported in serverInfo, e.g. '1.0.0'"),
  /** serverInfo.title */
  title: option(STRING),
  /**
   * Path of the Streamable HTTP endpoint, and the server's name among the several of one
   * application: stdio, `McpTestClient`, `McpServers.get` and the `server` option of the content
   * integrations (skills, apps) name a server by it. Default '/mcp'.
   */
  path: optionWith(URL_PATH, '/mcp', (path) => (path.length > 1 ? path.replace(/\/+$/, '') : path)),
  /** Instructions returned by server/discover. */
  instructions: option(STRING),
  /** Cache hints for cacheable results. */
  cache: nested(CACHE),
  /** A tool call that runs longer is answered with an `isError` result and its signal is aborted, in ms. Default: no limit. */
  toolTimeoutMs: option(POSITIVE_INTEGER),
  /**
   * Which protocol eras the endpoint serves: `'modern'` (2026-07-28) and `'legacy'` (2025-11-25,
   * 2025-06-18 and 2025-03-26 clients that open with `initialize`). Default both. Without
   * `'legacy'`, `initialize` is refused with -32022 (HTTP 400) listing the supported versions.
   */
  eras: optionWith(ERAS, ['modern', 'legacy'], (eras) => ({
    modern: eras.includes('modern'),
    legacy: eras.includes('legacy'),
  })),
  /**
   * The modules whose providers and controllers this server serves (their `@McpTool`, `@McpPrompt`,
   * `@McpResource` and `@McpResourceTemplate` methods). Default: the whole application. With
   * several `McpModule.forRoot` imports (each at its own `path`), give each its modules. A server
   * with `include` also seals its requestState and 2025-era session ids for its path only, so
   * another server of the same application refuses them.
   */
  include: optionWith(MODULES, undefined, (modules) => (modules ? Object.freeze([...modules]) : undefined)),
  /** @deprecated Use `limits.pageSize`. Entries per page of every list result. */
  pageSize: movedTo(POSITIVE_INTEGER, 'limits.pageSize'),
  /** @deprecated Use `limits.maxBodyBytes`. Largest request body (a stdio line) accepted, in bytes. */
  maxBodyBytes: movedTo(POSITIVE_INTEGER, 'limits.maxBodyBytes'),
  /** @deprecated Use `limits.maxJsonDepth`. Deepest nesting accepted in a request's params. */
  maxJsonDepth: movedTo(POSITIVE_INTEGER, 'limits.maxJsonDepth'),
});

/** What the server says about itself (the top level of `McpModule.forRoot`). */
export type McpServerOptions = SectionOptions<typeof SERVER>;

/** The bounds the server section's readers find there too (the same values as in the resolved `limits`). */
export type ServerBoundsFromLimits = Pick<ResolvedMcpLimits, 'pageSize' | 'maxBodyBytes' | 'maxJsonDepth'>;

/**
 * {@link McpServerOptions} after defaults were applied, with the bounds that moved to `limits`
 * (`pageSize`, `maxBodyBytes`, `maxJsonDepth`) copied from the resolved limits for the readers
 * that still take them from here.
 */
export type ResolvedMcpServerOptions = ResolvedSection<typeof SERVER> & ServerBoundsFromLimits;

/** Injection token of the {@link ResolvedMcpServerOptions}. */
export const MCP_SERVER_OPTIONS = Symbol.for('mocapi:options:server');

/** Applies the defaults of the server section; each problem found is added to `problems`. The bounds come from the resolved `limits`. */
export function resolveServerOptions(
  o: Partial<McpServerOptions>,
  problems: string[],
  limits: ResolvedMcpLimits = LIMIT_DEFAULTS,
): ResolvedMcpServerOptions {
  return {
    ...resolveSection(SERVER, o, '', problems),
    pageSize: limits.pageSize,
    maxBodyBytes: limits.maxBodyBytes,
    maxJsonDepth: limits.maxJsonDepth,
  };
}
