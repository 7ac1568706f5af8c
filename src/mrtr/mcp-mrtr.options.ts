import {
  LIMIT_DEFAULTS,
  type McpLimitsOptions,
  type ResolvedMcpLimits,
  resolveLimits,
} from '../core/mcp-limits.options.js';
import { foldMovedOptions } from '../core/moved-options.js';
import { BOOLEAN, NON_NEGATIVE_INTEGER, oneOf, POSITIVE_INTEGER } from '../core/option-checks.js';
import {
  check,
  defineSection,
  movedTo,
  option,
  type ResolvedSection,
  resolveSection,
  sectionDefaults,
  type SectionOptions,
} from '../core/option-section.js';
import type { ChangedQuestionPolicy } from './replay-session.js';

/** Settings of the stateless elicitation flow (requestState). */
export const MRTR = defineSection({
  /**
   * Secrets the requestState keys are derived from (HKDF-SHA256), each at least 32 characters.
   * The first one seals new tokens; every one opens tokens, so a new secret goes first and an old
   * one stays second until flows sealed with it have expired. Share the list across nodes.
   * Without secrets a random per-process key is used (tokens die on restart and cannot cross nodes).
   */
  secrets: option(
    check(
      (value): value is string[] => Array.isArray(value),
      'must be an array of strings (the first seals, all open)',
    ),
  ),
  /**
   * How long a client may take to answer one round of questions, in ms, in either era: a
   * requestState expires after it, and a 2025-era client's pushed questions time out. Default
   * 300000 (5 minutes).
   */
  ttlMs: option(POSITIVE_INTEGER, 300_000),
  /** How long a whole flow (all rounds) may last, in ms. Default 3600000 (1 hour). */
  maxFlowMs: option(POSITIVE_INTEGER, 3_600_000),
  /**
   * What a question that changed between rounds does: `'fail'` (default, strict: -32602
   * `ledger_mismatch`) or `'reask'` (drop the answers from there on and ask the new question).
   * Each elicit can choose for itself with its `whenChanged` option.
   */
  whenChanged: option(oneOf<ChangedQuestionPolicy>(['fail', 'reask']), 'fail'),
  /** How many changed questions one flow may re-ask before it fails. Default 3. */
  maxReasks: option(NON_NEGATIVE_INTEGER, 3),
  /**
   * Exactly-once completion for every tool (else per tool, `@McpTool({ exactlyOnce: true })`): the
   * first completion of a flow is recorded in the `McpFlowStore`, and a replayed or concurrent final
   * round gets that result without running the handler again. Default false.
   */
  exactlyOnce: option(BOOLEAN, false),
  /** @deprecated Use `limits.maxRequestStateChars`. The largest requestState accepted, in characters. */
  maxTokenChars: movedTo(POSITIVE_INTEGER, 'limits.maxRequestStateChars'),
  /** @deprecated Use `limits.maxRequestStateChars` (the bound counts characters). */
  maxTokenBytes: movedTo(POSITIVE_INTEGER, 'limits.maxRequestStateChars'),
  /** @deprecated Use `limits.maxAnswerChars`. The largest answer taken, in characters of JSON. */
  maxAnswerChars: movedTo(POSITIVE_INTEGER, 'limits.maxAnswerChars'),
  /** @deprecated Use `limits.maxAnswerChars` (the bound counts characters). */
  maxAnswerBytes: movedTo(POSITIVE_INTEGER, 'limits.maxAnswerChars'),
});

/** Settings of the stateless elicitation flow (requestState). */
export type McpMrtrOptions = SectionOptions<typeof MRTR>;

/** The bounds the mrtr section's readers find there too (copied from the resolved `limits`). */
export interface MrtrBoundsFromLimits {
  /** `limits.maxRequestStateChars`. */
  readonly maxTokenChars: number;
  /** `limits.maxAnswerChars`. */
  readonly maxAnswerChars: number;
}

/** {@link McpMrtrOptions} after defaults were applied, with the bounds that moved to `limits` under their old names. */
export type ResolvedMcpMrtrOptions = ResolvedSection<typeof MRTR> & MrtrBoundsFromLimits;

/** The default of every setting of the mrtr section (and of the bounds it shows from `limits`). */
export const MRTR_DEFAULTS: ResolvedMcpMrtrOptions = {
  ...sectionDefaults(MRTR),
  maxTokenChars: LIMIT_DEFAULTS.maxRequestStateChars,
  maxAnswerChars: LIMIT_DEFAULTS.maxAnswerChars,
};

/** Injection token of the {@link ResolvedMcpMrtrOptions}. */
export const MCP_MRTR_OPTIONS = Symbol.for('mocapi:options:mrtr');

/**
 * Applies the defaults of `mrtr`; each problem found is added to `problems`. The bounds come from
 * `limits` (the module passes the resolved ones); without it, from the deprecated spellings in `raw`.
 */
export function resolveMrtrOptions(
  raw: McpMrtrOptions | undefined,
  problems: string[],
  limits: ResolvedMcpLimits = resolveLimits(
    foldMovedOptions({ mrtr: raw ?? {} }, [{ at: 'mrtr', spec: MRTR }]).options['limits'] as McpLimitsOptions,
    [],
  ),
): ResolvedMcpMrtrOptions {
  return {
    ...resolveSection(MRTR, raw, 'mrtr.', problems),
    maxTokenChars: limits.maxRequestStateChars,
    maxAnswerChars: limits.maxAnswerChars,
  };
}
