import { checkPositiveIntegers } from '../core/option-checks.js';
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
  /** How long a client may take to answer one round, in ms. Default 300000 (5 minutes). */
  ttlMs?: number;
  /** How long a whole flow (all rounds) may last, in ms. Default 3600000 (1 hour). */
  maxFlowMs?: number;
  /** The largest requestState accepted, in characters, checked before decrypting. Default 65536. */
  maxTokenChars?: number;
  /** @deprecated Use `maxTokenChars` (the bound counts characters). */
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
  maxAnswerChars?: number;
  /** @deprecated Use `maxAnswerChars` (the bound counts characters). */
  maxAnswerBytes?: number;
  /**
   * Exactly-once completion for every tool (else per tool, `@McpTool({ exactlyOnce: true })`): the
   * first completion of a flow is recorded in the `McpFlowStore`, and a replayed or concurrent final
   * round gets that result without running the handler again. Default false.
   */
  exactlyOnce?: boolean;
}

/** {@link McpMrtrOptions} after defaults were applied (the deprecated names folded into the new ones). */
export interface ResolvedMcpMrtrOptions {
  readonly secrets?: readonly string[];
  readonly ttlMs: number;
  readonly maxFlowMs: number;
  readonly maxTokenChars: number;
  readonly whenChanged: ChangedQuestionPolicy;
  readonly maxReasks: number;
  readonly maxAnswerChars: number;
  readonly exactlyOnce: boolean;
}

/** The default of every setting in {@link McpMrtrOptions} that has one. */
export const MRTR_DEFAULTS: Omit<ResolvedMcpMrtrOptions, 'secrets'> = {
  ttlMs: 300_000,
  maxFlowMs: 3_600_000,
  maxTokenChars: 65_536,
  whenChanged: 'fail',
  maxReasks: 3,
  maxAnswerChars: 16_384,
  exactlyOnce: false,
};

/** Injection token of the {@link ResolvedMcpMrtrOptions}. */
export const MCP_MRTR_OPTIONS = Symbol.for('mocapi:options:mrtr');

/** Applies the defaults of `mrtr`; each problem found is added to `problems`. */
export function resolveMrtrOptions(raw: McpMrtrOptions | undefined, problems: string[]): ResolvedMcpMrtrOptions {
  const mrtr = raw ?? {};
  checkPositiveIntegers(
    mrtr,
    ['ttlMs', 'maxFlowMs', 'maxTokenChars', 'maxTokenBytes', 'maxAnswerChars', 'maxAnswerBytes'],
    'mrtr.',
    problems,
  );
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
  return {
    secrets: mrtr.secrets,
    ttlMs: mrtr.ttlMs ?? MRTR_DEFAULTS.ttlMs,
    maxFlowMs: mrtr.maxFlowMs ?? MRTR_DEFAULTS.maxFlowMs,
    maxTokenChars: mrtr.maxTokenChars ?? mrtr.maxTokenBytes ?? MRTR_DEFAULTS.maxTokenChars,
    whenChanged: mrtr.whenChanged ?? MRTR_DEFAULTS.whenChanged,
    maxReasks: mrtr.maxReasks ?? MRTR_DEFAULTS.maxReasks,
    maxAnswerChars: mrtr.maxAnswerChars ?? mrtr.maxAnswerBytes ?? MRTR_DEFAULTS.maxAnswerChars,
    exactlyOnce: mrtr.exactlyOnce ?? MRTR_DEFAULTS.exactlyOnce,
  };
}
