import { LIMIT_DEFAULTS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';
import { POSITIVE_INTEGER } from '../core/option-checks.js';
import {
  defineSection,
  movedTo,
  option,
  type ResolvedSection,
  resolveSection,
  sectionDefaults,
  type SectionOptions,
} from '../core/option-section.js';
import { MRTR_DEFAULTS, type ResolvedMcpMrtrOptions } from '../mrtr/mcp-mrtr.options.js';

/** How the endpoint serves 2025-era clients (those that open with `initialize`). */
export const LEGACY = defineSection({
  /** How long a session id stays valid after `initialize`, in ms; then the client initializes again. Default 86400000 (24 hours). */
  sessionTtlMs: option(POSITIVE_INTEGER, 86_400_000),
  /** @deprecated Use `limits.maxInputRounds`. How many times one legacy call may ask the client for input. */
  maxInputRounds: movedTo(POSITIVE_INTEGER, 'limits.maxInputRounds'),
  /**
   * @deprecated Use `mrtr.ttlMs`, the time a client may take to answer one round in either era.
   * How long the client may take to answer one round of pushed questions, in ms.
   */
  inputRoundTimeoutMs: movedTo(
    POSITIVE_INTEGER,
    'mrtr.ttlMs',
    'it is the same bound as a requestState round of 2026-07-28 clients, so the value now applies to both eras',
  ),
  /** @deprecated Use `limits.maxSessions`. Most sessions whose mutable state one node keeps. */
  maxSessions: movedTo(POSITIVE_INTEGER, 'limits.maxSessions'),
});

/** How the endpoint serves 2025-era clients (those that open with `initialize`). */
export type McpLegacyOptions = SectionOptions<typeof LEGACY>;

/** The bounds the legacy section's readers find there too (copied from the resolved `limits` and `mrtr`). */
export interface LegacyBoundsFromOtherSections {
  /** `limits.maxInputRounds`. */
  readonly maxInputRounds: number;
  /** `mrtr.ttlMs`. */
  readonly inputRoundTimeoutMs: number;
  /** `limits.maxSessions`. */
  readonly maxSessions: number;
}

/** {@link McpLegacyOptions} after defaults were applied, with the bounds that moved under their old names. */
export type ResolvedMcpLegacyOptions = ResolvedSection<typeof LEGACY> & LegacyBoundsFromOtherSections;

/** The default of every setting of the legacy section (and of the bounds it shows from elsewhere). */
export const LEGACY_DEFAULTS: ResolvedMcpLegacyOptions = {
  ...sectionDefaults(LEGACY),
  maxInputRounds: LIMIT_DEFAULTS.maxInputRounds,
  inputRoundTimeoutMs: MRTR_DEFAULTS.ttlMs,
  maxSessions: LIMIT_DEFAULTS.maxSessions,
};

/** Injection token of the {@link ResolvedMcpLegacyOptions}. */
export const MCP_LEGACY_OPTIONS = Symbol.for('mocapi:options:legacy');

/** Applies the defaults of `legacy`; each problem found is added to `problems`. The bounds come from the resolved `limits` and `mrtr`. */
export function resolveLegacyOptions(
  raw: McpLegacyOptions | undefined,
  problems: string[],
  limits: ResolvedMcpLimits = LIMIT_DEFAULTS,
  mrtr: Pick<ResolvedMcpMrtrOptions, 'ttlMs'> = MRTR_DEFAULTS,
): ResolvedMcpLegacyOptions {
  return {
    ...resolveSection(LEGACY, raw, 'legacy.', problems),
    maxInputRounds: limits.maxInputRounds,
    inputRoundTimeoutMs: mrtr.ttlMs,
    maxSessions: limits.maxSessions,
  };
}
