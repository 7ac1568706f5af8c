import type { Type } from '@nestjs/common';
import type { McpPrincipalSource } from './core/mcp-principal.source.js';
import type { McpFlowStore } from './mrtr/mcp-flow.store.js';
import type { McpTaskStore } from './task-store/mcp-task.store.js';
import type { McpAuditSink } from './telemetry/mcp-audit.sink.js';
import type { McpEventBus } from './events/mcp-event-bus.js';
import type { McpSessionBackplane } from './legacy/mcp-session.backplane.js';
import type { CacheScope } from './protocol/wire-types.js';
import type { McpProtocolEra } from './protocol/protocol-era.js';
import type { ChangedQuestionPolicy } from './mrtr/replay-session.js';
import { type McpLimitsOptions, type ResolvedMcpLimits, resolveLimits } from './core/mcp-limits.options.js';
import { McpOptionsError } from './core/mcp-options.error.js';

/** Settings of the `io.modelcontextprotocol/tasks` extension (tools declared with `taskSupport`). */
export interface McpTasksOptions {
  /** How long a task is kept from its creation (its `ttlMs`), in ms; a handler still running then is aborted. Default 3600000 (1 hour). */
  ttlMs?: number;
  /** The polling interval suggested to clients (`pollIntervalMs`), in ms. Default 1000. */
  pollIntervalMs?: number;
  /** How many tasks the in-memory store holds at most (finished ones make room first). Default 10000. */
  maxTasks?: number;
}

/** Settings of the stateless elicitation flow (requestState). */
export interface McpMrtrOptions {
  /**
   * Secrets the requestState keys are derived from (HKDF-SHA256), each at least 32 characters.
   * The first one seals new tokens; every one opens tokens, so a new secret goes first and an old
   * one stays second until flows sealed with it have expired. Share the list across nodes.
   * Without secrets a random per-process key is used (tokens die on restart and cannot cross nodes).
   */
  secrets?: string[];
  /** How long a client may take to answer one round, in ms. Default 300000 (5 minutes). */
  ttlMs?: number;
  /** How long a whole flow (all rounds) may last, in ms. Default 3600000 (1 hour). */
  maxFlowMs?: number;
  /** The largest requestState accepted, in characters, checked before decrypting. Default 65536. */
  maxTokenBytes?: number;
  /**
   * What a question that changed between rounds does: `'fail'` (default, strict: -32602
   * `ledger_mismatch`) or `'reask'` (drop the answers from there on and ask the new question).
   * Each elicit can choose for itself with its `whenChanged` option.
   */
  whenChanged?: ChangedQuestionPolicy;
  /** How many changed questions one flow may re-ask before it fails. Default 3. */
  maxReasks?: number;
  /**
   * The largest answer taken, in characters of JSON after it is reduced to the fields its kind
   * defines; a larger one is not sealed into the flow, and its question is asked again. Default 16384.
   */
  maxAnswerBytes?: number;
  /**
   * Exactly-once completion for every tool (else per tool, `@McpTool({ exactlyOnce: true })`): the
   * first completion of a flow is recorded in the `McpFlowStore`, and a replayed or concurrent final
   * round gets that result without running the handler again. Default false.
   */
  exactlyOnce?: boolean;
}

/** How the endpoint serves 2025-era clients (those that open with `initialize`). */
export interface McpLegacyOptions {
  /**
   * How many times one legacy call may ask the client for input (each round sends the handler's
   * questions as server-to-client requests and replays it with the answers). Default 8.
   */
  maxInputRounds?: number;
  /** How long the client may take to answer one round of pushed questions, in ms. Default 300000 (5 minutes). */
  inputRoundTimeoutMs?: number;
  /** How long a session id stays valid after `initialize`, in ms; then the client initializes again. Default 86400000 (24 hours). */
  sessionTtlMs?: number;
  /** Most sessions whose mutable state (log level, subscriptions, streams) one node keeps. Default 10000. */
  maxSessions?: number;
}

/** Cache hints stamped on cacheable results (server/discover, list results, resources/read). */
export interface McpCacheOptions {
  /** Default 0: clients should not reuse results. */
  ttlMs?: number;
  /** Default 'private'. */
  scope?: CacheScope;
}

/**
 * Options of `McpModule.forRoot` / `forRootAsync`.
 *
 * @publicApi
 */
export interface McpModuleOptions {
  /** serverInfo.name */
  name: string;
  /** serverInfo.version */
  version: string;
  /** serverInfo.title */
  title?: string;
  /** Instructions returned by server/discover. */
  instructions?: string;
  /** Path of the Streamable HTTP endpoint. Default '/mcp'. */
  path?: string;
  /** Serve the Streamable HTTP endpoint. Default true (set false for a stdio-only server). */
  http?: boolean;
  /**
   * Origins allowed in the `Origin` header, e.g. 'https://app.example.com'. Loopback origins are
   * always allowed. A request with any other Origin gets 403. Use '*' to allow every origin.
   */
  allowedOrigins?: string[];
  /**
   * Hosts allowed in the `Host` header (DNS-rebinding protection), e.g. 'mcp.example.com' or
   * 'mcp.example.com:8443'. Loopback hosts are always allowed. Use '*' to allow every host.
   */
  allowedHosts?: string[];
  /** Entries per page of every list result. Default 1000. */
  pageSize?: number;
  /** Cache hints for cacheable results. */
  cache?: McpCacheOptions;
  /** Largest request body accepted, in bytes; larger gets HTTP 413. Default 4194304 (4 MiB). */
  maxBodyBytes?: number;
  /**
   * Deepest nesting accepted in a request's params (arguments, answers, `_meta`) and in a client's
   * answers to pushed requests; deeper gets -32602 before anything reads it. Default 32.
   */
  maxJsonDepth?: number;
  /** A tool call that runs longer is answered with an `isError` result and its signal is aborted, in ms. Default: no limit. */
  toolTimeoutMs?: number;
  /** Stateless elicitation settings. */
  mrtr?: McpMrtrOptions;
  /** Settings of tasks (the `io.modelcontextprotocol/tasks` extension). */
  tasks?: McpTasksOptions;
  /**
   * Which protocol eras the endpoint serves: `'modern'` (2026-07-28) and `'legacy'` (2025-11-25,
   * 2025-06-18 and 2025-03-26 clients that open with `initialize`). Default both. Without
   * `'legacy'`, `initialize` is refused with -32022 (HTTP 400) listing the supported versions.
   */
  eras?: McpProtocolEra[];
  /** Settings of the 2025-era leg. */
  legacy?: McpLegacyOptions;
  /** Bounds on what one client can make the server keep (subscriptions, sessions, streams, tasks). */
  limits?: McpLimitsOptions;
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
}

/** Options after defaults were applied and validation passed. */
export interface ResolvedMcpOptions {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly instructions?: string;
  readonly path: string;
  readonly http: boolean;
  readonly allowedOrigins: readonly string[];
  readonly allowedHosts: readonly string[];
  readonly pageSize: number;
  readonly cache: Required<McpCacheOptions>;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly toolTimeoutMs?: number;
  readonly mrtr: McpMrtrOptions;
  readonly tasks: Readonly<Required<McpTasksOptions>>;
  readonly eras: { readonly modern: boolean; readonly legacy: boolean };
  readonly legacy: Readonly<Required<McpLegacyOptions>>;
  readonly limits: ResolvedMcpLimits;
  readonly principalSource?: Type<McpPrincipalSource> | McpPrincipalSource;
  readonly flowStore?: Type<McpFlowStore> | McpFlowStore;
  readonly taskStore?: Type<McpTaskStore> | McpTaskStore;
  readonly auditSink?: Type<McpAuditSink> | McpAuditSink;
  readonly eventBus?: Type<McpEventBus> | McpEventBus;
  readonly sessionBackplane?: Type<McpSessionBackplane> | McpSessionBackplane;
}

const positiveInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) > 0;

/** Applies defaults and validates; throws {@link McpOptionsError} listing every problem at once. */
export function resolveMcpOptions(options: McpModuleOptions | undefined): ResolvedMcpOptions {
  const problems: string[] = [];
  const o = (options ?? {}) as Partial<McpModuleOptions>;
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
  for (const key of ['allowedOrigins', 'allowedHosts'] as const) {
    const list = o[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((v) => typeof v !== 'string' || v === ''))) {
      problems.push(`\`${key}\` must be an array of non-empty strings`);
    }
  }
  const ttlMs = o.cache?.ttlMs ?? 0;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) problems.push('`cache.ttlMs` must be an integer >= 0');
  const scope = o.cache?.scope ?? 'private';
  if (scope !== 'public' && scope !== 'private') problems.push("`cache.scope` must be 'public' or 'private'");
  const mrtr = o.mrtr ?? {};
  for (const key of ['ttlMs', 'maxFlowMs', 'maxTokenBytes', 'maxAnswerBytes'] as const) {
    if (mrtr[key] !== undefined && !positiveInteger(mrtr[key]))
      problems.push(`\`mrtr.${key}\` must be a positive integer`);
  }
  if (mrtr.whenChanged !== undefined && mrtr.whenChanged !== 'fail' && mrtr.whenChanged !== 'reask') {
    problems.push("`mrtr.whenChanged` must be 'fail' or 'reask'");
  }
  if (mrtr.maxReasks !== undefined && !(Number.isInteger(mrtr.maxReasks) && mrtr.maxReasks >= 0)) {
    problems.push('`mrtr.maxReasks` must be an integer >= 0');
  }
  if (mrtr.exactlyOnce !== undefined && typeof mrtr.exactlyOnce !== 'boolean')
    problems.push('`mrtr.exactlyOnce` must be a boolean');
  if (mrtr.secrets !== undefined && !Array.isArray(mrtr.secrets)) {
    problems.push('`mrtr.secrets` must be an array of strings (the first seals, all open)');
  }
  const tasks = o.tasks ?? {};
  for (const key of ['ttlMs', 'pollIntervalMs', 'maxTasks'] as const) {
    if (tasks[key] !== undefined && !positiveInteger(tasks[key]))
      problems.push(`\`tasks.${key}\` must be a positive integer`);
  }
  const eras = o.eras ?? ['modern', 'legacy'];
  if (!Array.isArray(eras) || eras.length === 0 || eras.some((era) => era !== 'modern' && era !== 'legacy')) {
    problems.push("`eras` must be a non-empty array of 'modern' and/or 'legacy' (default: both)");
  }
  const legacy = o.legacy ?? {};
  for (const key of ['maxInputRounds', 'inputRoundTimeoutMs', 'sessionTtlMs', 'maxSessions'] as const) {
    if (legacy[key] !== undefined && !positiveInteger(legacy[key]))
      problems.push(`\`legacy.${key}\` must be a positive integer`);
  }
  const limits = resolveLimits(o.limits, problems);
  if (problems.length > 0) throw new McpOptionsError(problems);
  return {
    name: o.name!,
    version: o.version!,
    title: o.title,
    instructions: o.instructions,
    path: path.length > 1 ? path.replace(/\/+$/, '') : path,
    http: o.http ?? true,
    allowedOrigins: o.allowedOrigins ?? [],
    allowedHosts: o.allowedHosts ?? [],
    pageSize: o.pageSize ?? 1000,
    cache: { ttlMs, scope },
    maxBodyBytes: o.maxBodyBytes ?? 4 * 1024 * 1024,
    maxJsonDepth: o.maxJsonDepth ?? 32,
    toolTimeoutMs: o.toolTimeoutMs,
    mrtr,
    tasks: {
      ttlMs: tasks.ttlMs ?? 3_600_000,
      pollIntervalMs: tasks.pollIntervalMs ?? 1000,
      maxTasks: tasks.maxTasks ?? 10_000,
    },
    eras: { modern: eras.includes('modern'), legacy: eras.includes('legacy') },
    legacy: {
      maxInputRounds: legacy.maxInputRounds ?? 8,
      inputRoundTimeoutMs: legacy.inputRoundTimeoutMs ?? 300_000,
      sessionTtlMs: legacy.sessionTtlMs ?? 86_400_000,
      maxSessions: legacy.maxSessions ?? 10_000,
    },
    limits,
    principalSource: o.principalSource,
    flowStore: o.flowStore,
    taskStore: o.taskStore,
    auditSink: o.auditSink,
    eventBus: o.eventBus,
    sessionBackplane: o.sessionBackplane,
  };
}
