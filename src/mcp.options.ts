import type { Type } from '@nestjs/common';
import type { McpPrincipalSource } from './core/mcp-principal-source.js';
import type { McpFlowStore } from './mrtr/mcp-flow.store.js';
import type { McpTaskStore } from './task-store/mcp-task.store.js';
import type { McpTaskExecutor } from './tasks/mcp-task-executor.js';
import type { McpAuditSink } from './telemetry/mcp-audit-sink.js';
import type { McpEventBus } from './events/mcp-event-bus.js';
import type { McpSessionBackplane } from './legacy/mcp-session-backplane.js';
import type { McpHttpAuthenticator } from './transport/http/mcp-http-authenticator.js';
import { Logger } from '@nestjs/common';
import { LIMITS, type McpLimitsOptions, type ResolvedMcpLimits, resolveLimits } from './core/mcp-limits.options.js';
import { McpOptionsError } from './core/mcp-options.error.js';
import { foldMovedOptions, type MovedOptionsSection } from './core/moved-options.js';
import {
  type McpServerOptions,
  type ResolvedMcpServerOptions,
  resolveServerOptions,
  SERVER,
} from './core/mcp-server.options.js';
import { type McpMrtrOptions, MRTR, type ResolvedMcpMrtrOptions, resolveMrtrOptions } from './mrtr/mcp-mrtr.options.js';
import {
  type McpTasksOptions,
  type ResolvedMcpTasksOptions,
  resolveTasksOptions,
  TASKS,
} from './task-store/mcp-tasks.options.js';
import {
  LEGACY,
  type McpLegacyOptions,
  type ResolvedMcpLegacyOptions,
  resolveLegacyOptions,
} from './legacy/mcp-legacy.options.js';
import {
  HTTP,
  type McpHttpOptions,
  type ResolvedMcpHttpOptions,
  resolveHttpOptions,
} from './transport/http/mcp-http.options.js';
import {
  type McpServerCard,
  type McpServerCardOptions,
  resolveServerCard,
} from './transport/http/server-card.options.js';

export type { McpCacheOptions } from './core/mcp-server.options.js';
export type { McpMrtrOptions, McpTasksOptions, McpLegacyOptions };

/**
 * Options of `McpModule.forRoot` / `forRootAsync`.
 *
 * @publicApi
 */
export interface McpModuleOptions extends McpServerOptions, McpHttpOptions {
  /** Stateless elicitation settings. */
  mrtr?: McpMrtrOptions;
  /** Settings of tasks (the `io.modelcontextprotocol/tasks` extension). */
  tasks?: McpTasksOptions;
  /** Settings of the 2025-era leg. */
  legacy?: McpLegacyOptions;
  /**
   * Every bound a client can push on: request size and nesting, page size, requestState and answer
   * size, input rounds, sessions, subscriptions, pending questions, stream backlog, tasks.
   */
  limits?: McpLimitsOptions;
  /**
   * This server's Server Card (SEP-2127, the draft extension `io.modelcontextprotocol/server-card`),
   * served at `<path>/server-card` on the HTTP endpoint for registries, catalogs and hosts to read
   * before they connect, and the extension then declared in both eras' capabilities. A card needs
   * a `name` (`namespace/name`) and a `description` that serverInfo does not have, so a server
   * serves one whenever `card` gives them, and none without `card` or with `false`. Its `version`,
   * `title` and `icons` are the server's own. Checked at startup.
   */
  card?: McpServerCardOptions | false;
  /**
   * The application's own principal source: it wins over an integration module's (oauth2) and over
   * the anonymous default.
   */
  principalSource?: Type<McpPrincipalSource> | McpPrincipalSource;
  /**
   * The application's own store of exactly-once completions: it wins over an integration module's
   * and over the in-memory default.
   */
  flowStore?: Type<McpFlowStore> | McpFlowStore;
  /**
   * The application's own task store: it wins over an integration module's and over the in-memory
   * default.
   */
  taskStore?: Type<McpTaskStore> | McpTaskStore;
  /**
   * The application's own task executor (where task handlers run): it wins over an integration
   * module's (`@mocapi/nestjs/bullmq`) and over the in-process default.
   */
  taskExecutor?: Type<McpTaskExecutor> | McpTaskExecutor;
  /**
   * The application's own audit sink (one event per finished request): it wins over an integration
   * module's and over the default, which logs each event at debug level.
   */
  auditSink?: Type<McpAuditSink> | McpAuditSink;
  /**
   * The application's own event bus (list_changed and resource updates to every listening stream):
   * it wins over an integration module's (e.g. Redis) and over the in-process default.
   */
  eventBus?: Type<McpEventBus> | McpEventBus;
  /**
   * The application's own backplane of 2025-era sessions (shared state, responses and session ends
   * routed between nodes): it wins over an integration module's and over the default, which shares nothing.
   */
  sessionBackplane?: Type<McpSessionBackplane> | McpSessionBackplane;
  /**
   * How this server authenticates each Streamable HTTP request: the application's own
   * authenticator, or `false` for none even when an integration module (`@mocapi/nestjs/oauth2`)
   * provides one — e.g. the public one of two servers. Default: the integration's, else none.
   */
  httpAuthenticator?: Type<McpHttpAuthenticator> | McpHttpAuthenticator | false;
}

/**
 * Options after defaults were applied and validation passed: one resolved section per concern,
 * each also injectable on its own (`MCP_SERVER_OPTIONS`, `MCP_HTTP_OPTIONS`, `MCP_MRTR_OPTIONS`,
 * `MCP_TASKS_OPTIONS`, `MCP_LEGACY_OPTIONS`, `MCP_LIMITS`), which is what the module's providers inject.
 */
export interface ResolvedMcpOptions extends ResolvedMcpServerOptions, ResolvedMcpHttpOptions {
  readonly mrtr: ResolvedMcpMrtrOptions;
  readonly tasks: ResolvedMcpTasksOptions;
  readonly legacy: ResolvedMcpLegacyOptions;
  readonly limits: ResolvedMcpLimits;
  /** The Server Card as served, built once; undefined when the server serves none. */
  readonly card: McpServerCard | undefined;
  readonly principalSource?: Type<McpPrincipalSource> | McpPrincipalSource;
  readonly flowStore?: Type<McpFlowStore> | McpFlowStore;
  readonly taskStore?: Type<McpTaskStore> | McpTaskStore;
  readonly taskExecutor?: Type<McpTaskExecutor> | McpTaskExecutor;
  readonly auditSink?: Type<McpAuditSink> | McpAuditSink;
  readonly eventBus?: Type<McpEventBus> | McpEventBus;
  readonly sessionBackplane?: Type<McpSessionBackplane> | McpSessionBackplane;
  readonly httpAuthenticator?: Type<McpHttpAuthenticator> | McpHttpAuthenticator | false;
}

/** Every section of the options, where it sits in them ('' for the top level). */
const SECTIONS: readonly MovedOptionsSection[] = [
  { at: '', spec: SERVER },
  { at: '', spec: HTTP },
  { at: 'mrtr', spec: MRTR },
  { at: 'tasks', spec: TASKS },
  { at: 'legacy', spec: LEGACY },
  { at: 'limits', spec: LIMITS },
];

/**
 * Applies defaults and validates; throws {@link McpOptionsError} listing every problem at once. An
 * option set under a deprecated spelling is honored under its new one (unless that is set too: the
 * new spelling wins), with one warning on `logger` each.
 */
export function resolveMcpOptions(
  options: McpModuleOptions | undefined,
  logger: Pick<Logger, 'warn'> = new Logger('McpModule'),
): ResolvedMcpOptions {
  const problems: string[] = [];
  const folded = foldMovedOptions(options ?? {}, SECTIONS);
  for (const warning of folded.warnings) logger.warn(warning);
  const o = folded.options as Partial<McpModuleOptions>;
  const server = resolveServerOptions(o, problems);
  const resolved: ResolvedMcpOptions = {
    ...server,
    ...resolveHttpOptions(o, problems),
    mrtr: resolveMrtrOptions(o.mrtr, problems),
    tasks: resolveTasksOptions(o.tasks, problems),
    legacy: resolveLegacyOptions(o.legacy, problems),
    limits: resolveLimits(o.limits, problems),
    card: resolveServerCard(o.card, server, problems),
    principalSource: o.principalSource,
    flowStore: o.flowStore,
    taskStore: o.taskStore,
    taskExecutor: o.taskExecutor,
    auditSink: o.auditSink,
    eventBus: o.eventBus,
    sessionBackplane: o.sessionBackplane,
    httpAuthenticator: o.httpAuthenticator,
  };
  if (problems.length > 0) throw new McpOptionsError(problems);
  return resolved;
}
