import { POSITIVE_INTEGER } from './option-checks.js';
import { defineSection, option, resolveSection, type ResolvedSection, sectionDefaults } from './option-section.js';

/**
 * The bounds (`limits` of `McpModule.forRoot`): every bound a client can push on: what it sends
 * (bodies, nesting, requestStates, answers), what it makes the server keep (sessions, subscriptions,
 * pending questions, streams, tasks) and how much one answer holds (pages, rounds). Each bound
 * refused answers a JSON-RPC error with the request's id; none drops silently. Every one is a
 * positive integer; docs/limits.md lists them in one table.
 */
export interface McpLimitsOptions {
  /** Largest request body (a stdio line) accepted, in bytes; larger gets HTTP 413. Default 4194304 (4 MiB). */
  maxBodyBytes?: number;
  /**
   * Deepest nesting accepted in a request's params (arguments, answers, `_meta`) and in a client's
   * answers to pushed requests; deeper gets -32602 before anything reads it. Default 32.
   */
  maxJsonDepth?: number;
  /** Entries per page of every list result. Default 1000. */
  pageSize?: number;
  /** Longest resource URI accepted in a subscription (2025-era `resources/subscribe`, a listen filter), in characters. Default 2048. */
  maxUriLength?: number;
  /** Most resources one 2025-era session may be subscribed to at once. Default 100. */
  maxSubscriptionsPerSession?: number;
  /** Most entries one `subscriptions/listen` filter may list in `resourceSubscriptions` (and in `taskIds`). Default 1000. */
  maxListenFilterEntries?: number;
  /**
   * Most 2025-era sessions whose mutable state (log level, subscriptions, streams) one node keeps,
   * all callers together; when full, the oldest idle session of the caller holding the most gives
   * way. Default 10000.
   */
  maxSessions?: number;
  /** Most 2025-era sessions one caller (its principal, else its client address) may hold on one node; the oldest idle one gives way. Default 100. */
  maxSessionsPerCaller?: number;
  /** Most server-to-client requests (pushed questions) waiting for answers in one 2025-era session. Default 32. */
  maxPendingRequestsPerSession?: number;
  /**
   * How many times one 2025-era call may ask the client for input (each round sends the handler's
   * questions as server-to-client requests and replays it with the answers). Default 8.
   */
  maxInputRounds?: number;
  /** The largest requestState accepted, in characters, checked before decrypting. Default 65536. */
  maxRequestStateChars?: number;
  /**
   * The largest answer taken, in characters of JSON after it is reduced to the fields its kind
   * defines; a larger one is not sealed into the flow, and its question is asked again. Default 16384.
   */
  maxAnswerChars?: number;
  /**
   * How far a stream's client may fall behind, in bytes written but not yet taken by the connection.
   * A listen or GET stream past it is closed (its client reconnects); a tool's notifications wait for
   * the client (progress is dropped instead) and the call ends with an error when it stays behind. Default 1048576 (1 MiB).
   */
  maxStreamBacklogBytes?: number;
  /** How many tasks the in-memory task store holds at most, all callers together (finished ones make room first). Default 10000. */
  maxTasks?: number;
  /** Most tasks one caller (principal, else client address) may have live at once (working or input_required). Default 100. */
  maxRunningTasksPerCaller?: number;
  /** Most tasks one caller may keep in the store, working or finished. Default 1000. */
  maxStoredTasksPerCaller?: number;
  /**
   * Most bytes one caller's tasks may take in the task store together, counted as the store keeps
   * them: the JSON of each task (its arguments, the client capabilities it keeps, its status
   * message, questions, answers and replay ledger, its result or error), from its creation until it
   * expires. A new task past it is refused like one past `maxStoredTasksPerCaller` (-32050, HTTP
   * 429, `Retry-After`); one that alone would pass it, with -32602 (HTTP 400). A write that would
   * make a running task pass it is not kept: `tasks/update` answers are refused (-32050, HTTP 429),
   * a result, an error or the handler's questions fail the task instead (-32603, with `data.limit`),
   * a progress report is dropped. The default holds one caller to 32 MiB instead of the gigabytes
   * that `maxStoredTasksPerCaller` tasks of `maxTaskPayloadBytes` parts allow, and still takes about
   * eight tasks with every part at its bound (some 4 MiB each), or the 1000 stored tasks at 32 KiB
   * each (a result meant for a model's context takes a few KiB). Default 33554432 (32 MiB).
   */
  maxStoredTaskBytesPerCaller?: number;
  /**
   * Largest part of a task kept in the task store, in bytes of JSON: its arguments, the client
   * capabilities it keeps, each tasks/update's answers, its result or error. Default 1048576 (1 MiB).
   */
  maxTaskPayloadBytes?: number;
}

/** The check and the default of every bound of {@link McpLimitsOptions}. */
export const LIMITS = defineSection<McpLimitsOptions>()({
  maxBodyBytes: option(POSITIVE_INTEGER, 4 * 1024 * 1024),
  maxJsonDepth: option(POSITIVE_INTEGER, 32),
  pageSize: option(POSITIVE_INTEGER, 1000),
  maxUriLength: option(POSITIVE_INTEGER, 2048),
  maxSubscriptionsPerSession: option(POSITIVE_INTEGER, 100),
  maxListenFilterEntries: option(POSITIVE_INTEGER, 1000),
  maxSessions: option(POSITIVE_INTEGER, 10_000),
  maxSessionsPerCaller: option(POSITIVE_INTEGER, 100),
  maxPendingRequestsPerSession: option(POSITIVE_INTEGER, 32),
  maxInputRounds: option(POSITIVE_INTEGER, 8),
  maxRequestStateChars: option(POSITIVE_INTEGER, 65_536),
  maxAnswerChars: option(POSITIVE_INTEGER, 16_384),
  maxStreamBacklogBytes: option(POSITIVE_INTEGER, 1024 * 1024),
  maxTasks: option(POSITIVE_INTEGER, 10_000),
  maxRunningTasksPerCaller: option(POSITIVE_INTEGER, 100),
  maxStoredTasksPerCaller: option(POSITIVE_INTEGER, 1000),
  maxStoredTaskBytesPerCaller: option(POSITIVE_INTEGER, 32 * 1024 * 1024),
  maxTaskPayloadBytes: option(POSITIVE_INTEGER, 1024 * 1024),
});

/** The bounds after defaults were applied. */
export type ResolvedMcpLimits = ResolvedSection<typeof LIMITS>;

/** The default of every bound in {@link McpLimitsOptions}. */
export const LIMIT_DEFAULTS: ResolvedMcpLimits = sectionDefaults(LIMITS);

/** Applies the defaults to `limits`; each value given must be a positive integer, else a problem is added. */
export function resolveLimits(raw: McpLimitsOptions | undefined, problems: string[]): ResolvedMcpLimits {
  return resolveSection(LIMITS, raw, 'limits.', problems);
}

/** Injection token of the {@link ResolvedMcpLimits}. */
export const MCP_LIMITS = Symbol.for('mocapi:options:limits');
