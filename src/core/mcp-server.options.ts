import type { CacheScope } from '../protocol/wire-types.js';
import { frozenIcons, iconsProblem, type McpIcon } from '../protocol/icons.js';
import type { McpProtocolEra } from '../protocol/protocol-era.js';
import { NON_EMPTY_STRING, NON_NEGATIVE_INTEGER, oneOf, POSITIVE_INTEGER, STRING } from './option-checks.js';
import {
  check,
  defineSection,
  movedTo,
  nested,
  option,
  type OptionField,
  optionWith,
  required,
  type ResolvedSection,
  resolveSection,
} from './option-section.js';

/** Cache hints stamped on cacheable results (server/discover, list results, resources/read). */
export interface McpCacheOptions {
  /** Default 0: clients should not reuse results. */
  ttlMs?: number;
  /** Default 'private'. */
  scope?: CacheScope;
}

/** The check and the default of every field of {@link McpCacheOptions}. */
export const CACHE = defineSection<McpCacheOptions>()({
  ttlMs: option(NON_NEGATIVE_INTEGER, 0),
  scope: option(oneOf<CacheScope>(['public', 'private']), 'private'),
});

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

/**
 * The server's icons: checked icon by icon (each problem named, e.g. `icons[0].src`), resolved to
 * a frozen copy, undefined when none.
 */
const ICONS: OptionField<readonly McpIcon[], readonly McpIcon[] | undefined, 'optional'> = {
  kind: 'optional',
  check: check((value): value is readonly McpIcon[] => Array.isArray(value), 'must be an array of icons'),
  resolve: (value, path, problems) => {
    if (value === undefined) return undefined;
    const problem = iconsProblem(value, path);
    if (problem === undefined) return frozenIcons(value);
    problems.push(problem.replace(/^(\S+) /, '`$1` '));
    return undefined;
  },
};

/** What the server says about itself (the top level of `McpModule.forRoot`). */
export interface McpServerOptions {
  /** serverInfo.name */
  name: string;
  /** serverInfo.version */
  version: string;
  /** serverInfo.title */
  title?: string;
  /**
   * serverInfo.icons: the images hosts show for the server, in `initialize` (2025 era) and on
   * every 2026-07-28 result's serverInfo (`server/discover` among them). Each icon's `src` is an
   * `https:` URL or a `data:` URI of an image; `sizes` are `WIDTHxHEIGHT` or `any`; `theme` is
   * `light` or `dark`. Checked at startup. Default: none.
   */
  icons?: readonly McpIcon[];
  /**
   * Path of the Streamable HTTP endpoint, and the server's name among the several of one
   * application: stdio, `McpTestClient`, `McpServers.get` and the `server` option of the content
   * integrations (skills, apps) name a server by it. Default '/mcp'.
   */
  path?: string;
  /** Instructions returned by server/discover. */
  instructions?: string;
  /** Cache hints for cacheable results. */
  cache?: McpCacheOptions;
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
  /**
   * Entries per page of every list result.
   *
   * @deprecated Use `limits.pageSize`.
   */
  pageSize?: number;
  /**
   * Largest request body (a stdio line) accepted, in bytes.
   *
   * @deprecated Use `limits.maxBodyBytes`.
   */
  maxBodyBytes?: number;
  /**
   * Deepest nesting accepted in a request's params.
   *
   * @deprecated Use `limits.maxJsonDepth`.
   */
  maxJsonDepth?: number;
}

/** The check and the default of every field of {@link McpServerOptions}. */
export const SERVER = defineSection<McpServerOptions>()({
  name: required(
    NON_EMPTY_STRING,
    "`name` is required: the server name reported in serverInfo, e.g. McpModule.forRoot({ name: 'orders', version: '1.0.0' })",
  ),
  version: required(NON_EMPTY_STRING, "`version` is required: the server version reported in serverInfo, e.g. '1.0.0'"),
  title: option(STRING),
  icons: ICONS,
  path: optionWith(URL_PATH, '/mcp', (path) => (path.length > 1 ? path.replace(/\/+$/, '') : path)),
  instructions: option(STRING),
  cache: nested(CACHE),
  toolTimeoutMs: option(POSITIVE_INTEGER),
  eras: optionWith(ERAS, ['modern', 'legacy'], (eras) => ({
    modern: eras.includes('modern'),
    legacy: eras.includes('legacy'),
  })),
  include: optionWith(MODULES, undefined, (modules) => (modules ? Object.freeze([...modules]) : undefined)),
  pageSize: movedTo(POSITIVE_INTEGER, 'limits.pageSize'),
  maxBodyBytes: movedTo(POSITIVE_INTEGER, 'limits.maxBodyBytes'),
  maxJsonDepth: movedTo(POSITIVE_INTEGER, 'limits.maxJsonDepth'),
});

/**
 * {@link McpServerOptions} after defaults were applied. The bounds that moved to `limits`
 * (`pageSize`, `maxBodyBytes`, `maxJsonDepth`) are read from the resolved limits (`MCP_LIMITS`).
 */
export type ResolvedMcpServerOptions = ResolvedSection<typeof SERVER>;

/** Injection token of the {@link ResolvedMcpServerOptions}. */
export const MCP_SERVER_OPTIONS = Symbol.for('mocapi:options:server');

/** Applies the defaults of the server section; each problem found is added to `problems`. */
export function resolveServerOptions(o: Partial<McpServerOptions>, problems: string[]): ResolvedMcpServerOptions {
  return resolveSection(SERVER, o, '', problems);
}
