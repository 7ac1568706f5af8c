import { checkPositiveIntegers } from '../core/option-checks.js';

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

/** {@link McpLegacyOptions} after defaults were applied. */
export type ResolvedMcpLegacyOptions = Readonly<Required<McpLegacyOptions>>;

/** The default of every setting in {@link McpLegacyOptions}. */
export const LEGACY_DEFAULTS: ResolvedMcpLegacyOptions = {
  maxInputRounds: 8,
  inputRoundTimeoutMs: 300_000,
  sessionTtlMs: 86_400_000,
  maxSessions: 10_000,
};

/** Injection token of the {@link ResolvedMcpLegacyOptions}. */
export const MCP_LEGACY_OPTIONS = Symbol.for('mocapi:options:legacy');

/** Applies the defaults of `legacy`; each problem found is added to `problems`. */
export function resolveLegacyOptions(raw: McpLegacyOptions | undefined, problems: string[]): ResolvedMcpLegacyOptions {
  const legacy = raw ?? {};
  checkPositiveIntegers(
    legacy,
    ['maxInputRounds', 'inputRoundTimeoutMs', 'sessionTtlMs', 'maxSessions'],
    'legacy.',
    problems,
  );
  return {
    maxInputRounds: legacy.maxInputRounds ?? LEGACY_DEFAULTS.maxInputRounds,
    inputRoundTimeoutMs: legacy.inputRoundTimeoutMs ?? LEGACY_DEFAULTS.inputRoundTimeoutMs,
    sessionTtlMs: legacy.sessionTtlMs ?? LEGACY_DEFAULTS.sessionTtlMs,
    maxSessions: legacy.maxSessions ?? LEGACY_DEFAULTS.maxSessions,
  };
}
