import { POSITIVE_INTEGER } from '../core/option-checks.js';
import {
  defineSection,
  movedTo,
  option,
  type ResolvedSection,
  resolveSection,
  sectionDefaults,
} from '../core/option-section.js';

/** How the endpoint serves 2025-era clients (those that open with `initialize`). */
export interface McpLegacyOptions {
  /** How long a session id stays valid after `initialize`, in ms; then the client initializes again. Default 86400000 (24 hours). */
  sessionTtlMs?: number;
  /**
   * How many times one legacy call may ask the client for input.
   *
   * @deprecated Use `limits.maxInputRounds`.
   */
  maxInputRounds?: number;
  /**
   * How long the client may take to answer one round of pushed questions, in ms.
   *
   * @deprecated Use `mrtr.ttlMs`, the time a client may take to answer one round in either era.
   */
  inputRoundTimeoutMs?: number;
  /**
   * Most sessions whose mutable state one node keeps.
   *
   * @deprecated Use `limits.maxSessions`.
   */
  maxSessions?: number;
}

/** The check and the default of every setting of {@link McpLegacyOptions}. */
export const LEGACY = defineSection<McpLegacyOptions>()({
  sessionTtlMs: option(POSITIVE_INTEGER, 86_400_000),
  maxInputRounds: movedTo(POSITIVE_INTEGER, 'limits.maxInputRounds'),
  inputRoundTimeoutMs: movedTo(
    POSITIVE_INTEGER,
    'mrtr.ttlMs',
    'it is the same bound as a requestState round of 2026-07-28 clients, so the value now applies to both eras',
  ),
  maxSessions: movedTo(POSITIVE_INTEGER, 'limits.maxSessions'),
});

/**
 * {@link McpLegacyOptions} after defaults were applied. The bounds that moved are read where they
 * are now: `limits.maxInputRounds` and `limits.maxSessions` (`MCP_LIMITS`), `mrtr.ttlMs` (`MCP_MRTR_OPTIONS`).
 */
export type ResolvedMcpLegacyOptions = ResolvedSection<typeof LEGACY>;

/** The default of every setting of the legacy section. */
export const LEGACY_DEFAULTS: ResolvedMcpLegacyOptions = sectionDefaults(LEGACY);

/** Injection token of the {@link ResolvedMcpLegacyOptions}. */
export const MCP_LEGACY_OPTIONS = Symbol.for('mocapi:options:legacy');

/** Applies the defaults of `legacy`; each problem found is added to `problems`. */
export function resolveLegacyOptions(raw: McpLegacyOptions | undefined, problems: string[]): ResolvedMcpLegacyOptions {
  return resolveSection(LEGACY, raw, 'legacy.', problems);
}
