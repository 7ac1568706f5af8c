import { BOOLEAN, NON_NEGATIVE_INTEGER, oneOf, POSITIVE_INTEGER } from '../core/option-checks.js';
import {
  check,
  defineSection,
  movedTo,
  option,
  type ResolvedSection,
  resolveSection,
  sectionDefaults,
} from '../core/option-section.js';
import type { ChangedQuestionPolicy } from './replay-session.js';

/** Settings of the stateless elicitation flow (requestState). */
export interface McpMrtrOptions {
  /**
   * Secrets the requestState keys are derived from (HKDF-SHA256), each at least 32 characters.
   * The first one seals new tokens; every one opens tokens, so a new secret goes first and an old
   * one stays second until flows sealed with it have expired. Share the list across nodes.
   * Without secrets a random per-process key is used (tokens die on restart and cannot cross nodes).
   */
  secrets?: string[];
  /**
   * How long a client may take to answer one round of questions, in ms, in either era: a
   * requestState expires after it, and a 2025-era client's pushed questions time out. Default
   * 300000 (5 minutes).
   */
  ttlMs?: number;
  /** How long a whole flow (all rounds) may last, in ms. Default 3600000 (1 hour). */
  maxFlowMs?: number;
  /**
   * What a question that changed between rounds does: `'fail'` (default, strict: -32602
   * `ledger_mismatch`) or `'reask'` (drop the answers from there on and ask the new question).
   * Each elicit can choose for itself with its `whenChanged` option.
   */
  whenChanged?: ChangedQuestionPolicy;
  /** How many changed questions one flow may re-ask before it fails. Default 3. */
  maxReasks?: number;
  /**
   * Exactly-once completion for every tool (else per tool, `@McpTool({ exactlyOnce: true })`): the
   * first completion of a flow is recorded in the `McpFlowStore`, and a replayed or concurrent final
   * round gets that result without running the handler again. Default false.
   */
  exactlyOnce?: boolean;
  /**
   * The largest requestState accepted, in characters.
   *
   * @deprecated Use `limits.maxRequestStateChars`.
   */
  maxTokenChars?: number;
  /** @deprecated Use `limits.maxRequestStateChars` (the bound counts characters). */
  maxTokenBytes?: number;
  /**
   * The largest answer taken, in characters of JSON.
   *
   * @deprecated Use `limits.maxAnswerChars`.
   */
  maxAnswerChars?: number;
  /** @deprecated Use `limits.maxAnswerChars` (the bound counts characters). */
  maxAnswerBytes?: number;
}

/** The check and the default of every setting of {@link McpMrtrOptions}. */
export const MRTR = defineSection<McpMrtrOptions>()({
  secrets: option(
    check(
      (value): value is string[] => Array.isArray(value),
      'must be an array of strings (the first seals, all open)',
    ),
  ),
  ttlMs: option(POSITIVE_INTEGER, 300_000),
  maxFlowMs: option(POSITIVE_INTEGER, 3_600_000),
  whenChanged: option(oneOf<ChangedQuestionPolicy>(['fail', 'reask']), 'fail'),
  maxReasks: option(NON_NEGATIVE_INTEGER, 3),
  exactlyOnce: option(BOOLEAN, false),
  maxTokenChars: movedTo(POSITIVE_INTEGER, 'limits.maxRequestStateChars'),
  maxTokenBytes: movedTo(POSITIVE_INTEGER, 'limits.maxRequestStateChars'),
  maxAnswerChars: movedTo(POSITIVE_INTEGER, 'limits.maxAnswerChars'),
  maxAnswerBytes: movedTo(POSITIVE_INTEGER, 'limits.maxAnswerChars'),
});

/**
 * {@link McpMrtrOptions} after defaults were applied. The bounds that moved to `limits`
 * (`maxRequestStateChars`, `maxAnswerChars`) are read from the resolved limits (`MCP_LIMITS`).
 */
export type ResolvedMcpMrtrOptions = ResolvedSection<typeof MRTR>;

/** The default of every setting of the mrtr section. */
export const MRTR_DEFAULTS: ResolvedMcpMrtrOptions = sectionDefaults(MRTR);

/** Injection token of the {@link ResolvedMcpMrtrOptions}. */
export const MCP_MRTR_OPTIONS = Symbol.for('mocapi:options:mrtr');

/** Applies the defaults of `mrtr`; each problem found is added to `problems`. */
export function resolveMrtrOptions(raw: McpMrtrOptions | undefined, problems: string[]): ResolvedMcpMrtrOptions {
  return resolveSection(MRTR, raw, 'mrtr.', problems);
}
