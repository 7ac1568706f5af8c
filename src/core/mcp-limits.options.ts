/**
 * Bounds on what one client can make the server keep (memory held between or during requests).
 * Each bound refused answers a JSON-RPC error with the request's id; none drops silently.
 * docs list every bound with its default in one table.
 */
export interface McpLimitsOptions {
  /** Longest resource URI accepted in a subscription (2025-era `resources/subscribe`, a listen filter), in characters. Default 2048. */
  maxUriLength?: number;
  /** Most resources one 2025-era session may be subscribed to at once. Default 100. */
  maxSubscriptionsPerSession?: number;
  /** Most entries one `subscriptions/listen` filter may list in `resourceSubscriptions` (and in `taskIds`). Default 1000. */
  maxListenFilterEntries?: number;
  /** Most 2025-era sessions one caller (its principal, else its client address) may hold on one node; the oldest idle one gives way. Default 100. */
  maxSessionsPerCaller?: number;
  /** Most server-to-client requests (pushed questions) waiting for answers in one 2025-era session. Default 32. */
  maxPendingRequestsPerSession?: number;
  /**
   * How far a stream's client may fall behind, in bytes written but not yet taken by the connection.
   * A listen or GET stream past it is closed (its client reconnects); a tool's notifications wait for
   * the client (progress is dropped instead) and the call ends with an error when it stays behind. Default 1048576 (1 MiB).
   */
  maxStreamBacklogBytes?: number;
  /** Most tasks one caller (principal, else client address) may have live at once (working or input_required). Default 100. */
  maxRunningTasksPerCaller?: number;
  /** Most tasks one caller may keep in the store, working or finished. Default 1000. */
  maxStoredTasksPerCaller?: number;
  /**
   * Largest part of a task kept in the task store, in bytes of JSON: its arguments, the client
   * capabilities it keeps, each tasks/update's answers, its result or error. Default 1048576 (1 MiB).
   */
  maxTaskPayloadBytes?: number;
}

/** The bounds after defaults were applied. */
export type ResolvedMcpLimits = Readonly<Required<McpLimitsOptions>>;

/** The default of every bound in {@link McpLimitsOptions}. */
export const LIMIT_DEFAULTS: ResolvedMcpLimits = {
  maxUriLength: 2048,
  maxSubscriptionsPerSession: 100,
  maxListenFilterEntries: 1000,
  maxSessionsPerCaller: 100,
  maxPendingRequestsPerSession: 32,
  maxStreamBacklogBytes: 1024 * 1024,
  maxRunningTasksPerCaller: 100,
  maxStoredTasksPerCaller: 1000,
  maxTaskPayloadBytes: 1024 * 1024,
};

/** Applies the defaults to `limits`; each value given must be a positive integer, else a problem is added. */
export function resolveLimits(raw: McpLimitsOptions | undefined, problems: string[]): ResolvedMcpLimits {
  const limits = { ...LIMIT_DEFAULTS };
  for (const key of Object.keys(LIMIT_DEFAULTS) as (keyof McpLimitsOptions)[]) {
    const value = raw?.[key];
    if (value === undefined) continue;
    if (Number.isInteger(value) && value > 0) limits[key] = value;
    else problems.push(`\`limits.${key}\` must be a positive integer`);
  }
  return limits;
}

/** Injection token of the {@link ResolvedMcpLimits}. */
export const MCP_LIMITS = Symbol.for('mocapi:options:limits');
