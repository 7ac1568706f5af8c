import { randomId } from '../core/random-pool.js';
import { McpError } from '../protocol/mcp.error.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  InputRequest,
  InputRequiredResult,
  InputResponse,
} from '../protocol/wire-types.js';
import {
  mergeCapabilities,
  missingCapabilities,
  supportsElicitation,
  supportsRoots,
  supportsSampling,
} from './client-capability-gate.js';
import { ElicitationLedgerMismatchException } from './exceptions/elicitation-ledger-mismatch.exception.js';
import { InputRequiredException } from './exceptions/input-required.exception.js';
import {
  copyInputResponse,
  inputKind,
  isRefusedAnswer,
  normalizeInputRequest,
  readInputResponse,
} from './input-kinds.js';
import { questionFingerprint } from './question-fingerprint.js';
import { FlowMemos } from './flow-memos.js';
import type { ChangedQuestionPolicy, PendingInput, ReplaySessionInit } from './replay-session-init.js';
import {
  defaultSlotKey,
  type LedgerSlot,
  type RequestBinding,
  type RequestStatePayload,
} from './request-state-payload.js';

export { parseInputResponses } from './input-responses-parser.js';

export type { ChangedQuestionPolicy, PendingInput, ReplaySessionInit } from './replay-session-init.js';

/**
 * The replay engine of one call. Every round trip re-runs the handler from the top; the Nth input
 * it asks for is ordinal N, and the ledger (carried in requestState) says for each ordinal which
 * question was asked (key + fingerprint) and, once known, its answer. Answered ordinals return at
 * once; the first round with an unanswered question unwinds the handler with an
 * {@link InputRequiredException}; a different question at a known ordinal means the handler is not
 * deterministic before its last elicit, and fails with {@link ElicitationLedgerMismatchException}.
 *
 * Lives for one handler invocation, reached through `mcpCallScope`.
 */
export class ReplaySession {
  readonly binding: RequestBinding;
  private readonly ledger: LedgerSlot[];
  /** How many ledger slots came with the requestState: only those may take new answers on a retry. */
  private stateSlots: number;
  private readonly hasState: boolean;
  /** The retry's `inputResponses` (a plain object, checked by `parseInputResponses`). */
  private readonly responses: Readonly<Record<string, Record<string, unknown>>>;
  private readonly usedKeys = new Set<string>();
  private readonly keysThisRun = new Set<string>();
  private readonly capabilities: ClientCapabilities;
  private readonly now: number;
  /** When the flow's first round started (ms epoch): its lifetime counts from here. */
  readonly startedAt: number;
  private readonly whenChanged: ChangedQuestionPolicy;
  private readonly maxReasks: number;
  private readonly maxAnswerChars: number;
  /** Answers this round did not take, by key, with the reason: the round's `_meta` tells the client. */
  private readonly refused = new Map<string, string>();
  private reasks: number;
  private id: string | undefined;
  private cursor = 0;
  /** The `once` values sealed by earlier rounds, as read from the state. */
  private readonly stateMemos: readonly unknown[] | undefined;
  /** This run's `once` values, made on its first `once` (most runs have none). */
  private memos: FlowMemos | undefined;
  private closed = false;
  /** The input-required round once sealed: sealing happens once per call. */
  sealedRound: InputRequiredResult | undefined;
  private signal: InputRequiredException | undefined;

  constructor(init: ReplaySessionInit) {
    this.binding = init.binding;
    this.hasState = init.state !== undefined;
    this.ledger = (init.state?.ledger ?? []).map((slot) => ({ ...slot }));
    this.stateSlots = this.ledger.length;
    this.responses = init.inputResponses ?? {};
    this.capabilities = init.clientCapabilities ?? {};
    this.now = init.now;
    this.startedAt = init.state?.startedAt ?? init.now;
    this.id = init.state?.flowId;
    this.reasks = init.state?.reasks ?? 0;
    this.stateMemos = init.state?.memos;
    this.whenChanged = init.whenChanged ?? 'fail';
    this.maxReasks = init.maxReasks ?? 3;
    this.maxAnswerChars = init.maxAnswerChars ?? 16_384;
  }

  /** Why answers sent this round were not taken (their questions are asked again), by key. */
  get refusedAnswers(): ReadonlyMap<string, string> {
    return this.refused;
  }

  /**
   * The flow's id: carried by the requestState of a retry, made for a first round (and then sealed
   * into every token of the flow). Stable across all rounds, so handlers can key their own
   * idempotency on it.
   */
  get flowId(): string {
    return (this.id ??= randomId());
  }

  /** Whether this call continues a flow (it carried a requestState). */
  get isRetry(): boolean {
    return this.hasState;
  }

  /**
   * Asks one round of questions; returns the answers in order, or throws InputRequiredException /
   * McpError(-32021) / ElicitationLedgerMismatchException.
   *
   * A batch of k inputs takes k consecutive ordinals. When any is unanswered, the signal asks for
   * every unanswered input of the batch at once, so the client can answer them in one round.
   */
  ask(inputs: readonly PendingInput[]): InputResponse[] {
    if (this.closed) {
      throw new Error(
        'ElicitationContext used after its MCP call finished: await every elicit() before the handler returns.',
      );
    }
    const answers: InputResponse[] = [];
    const missing: Array<{ key: string; request: InputRequest }> = [];
    for (const input of inputs) {
      const request = normalizeInputRequest(input.request);
      const kind = inputKind(request);
      const ordinal = ++this.cursor;
      const key = input.key ?? defaultSlotKey(kind, ordinal);
      if (typeof key !== 'string' || key === '') throw new TypeError('An input request key must be a non-empty string');
      if (this.keysThisRun.has(key)) {
        throw new Error(`Input request key "${key}" is used twice in one call; every key must be unique.`);
      }
      this.keysThisRun.add(key);

      const fingerprint = questionFingerprint(request);
      let slot = this.ledger[ordinal - 1];
      if (slot === undefined) {
        slot = { key, kind, fingerprint };
        this.ledger.push(slot);
      } else if (slot.key !== key || slot.fingerprint !== fingerprint) {
        slot = this.replaceChanged(ordinal, slot, { key, kind, fingerprint }, input.whenChanged ?? this.whenChanged);
      }

      // Answers land only on questions the client was actually asked: the pending slots of the
      // requestState, or, on a call without requestState, whatever the handler asks for.
      const mayTakeAnswer = this.hasState ? ordinal <= this.stateSlots : true;
      if (slot.answer === undefined && mayTakeAnswer) this.merge(slot, request, input.validate);

      if (slot.answer === undefined) missing.push({ key, request });
      else answers.push(slot.answer);
    }

    // A copy, so that a handler changing its answer does not change what later rounds replay.
    if (missing.length === 0) return answers.map(copyInputResponse);

    const required = missing
      .map(({ request }) => missingCapabilities(request, this.capabilities))
      .filter((r) => r !== undefined);
    if (required.length > 0) throw McpError.missingCapability(mergeCapabilities(required));

    const inputRequests: Record<string, InputRequest> = {};
    for (const { key, request } of missing) {
      Object.defineProperty(inputRequests, key, {
        value: request,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    this.signal = new InputRequiredException(
      inputRequests,
      this.ledger.slice(0, this.cursor).map((slot) => ({ ...slot })),
    );
    throw this.signal;
  }

  /**
   * A value computed once per flow: the first run that reaches this (the Nth `once` of the run)
   * computes it, later runs of the flow get it back from the requestState without computing it.
   * The value travels as JSON, so every run (the first included) gets its JSON copy; a value JSON
   * cannot carry (a function, a `bigint`, a cycle) is refused with a `TypeError`.
   */
  async once<T>(compute: () => T | Promise<T>): Promise<T> {
    if (this.closed) {
      throw new Error(
        'ElicitationContext used after its MCP call finished: await every once() before the handler returns.',
      );
    }
    this.memos ??= new FlowMemos(this.stateMemos);
    return this.memos.next(compute);
  }

  /** The payload to seal for the next round (ledger so far, issuedAt=now, startedAt kept from state or now). */
  nextPayload(exception: InputRequiredException): RequestStatePayload {
    const { method, target, argsDigest, principal } = this.binding;
    const payload: RequestStatePayload = {
      method,
      target,
      argsDigest,
      principal,
      flowId: this.flowId,
      ledger: exception.ledger.map((slot) => ({ ...slot })),
      issuedAt: this.now,
      startedAt: this.startedAt,
    };
    // Set after, not spread in: a conditional spread amid members costs Node 20 some 0.5 us.
    if (this.reasks > 0) payload.reasks = this.reasks;
    // The state's own values are parsed JSON nobody was given: sealed again as they are.
    const memos = this.memos ? this.memos.sealed() : this.stateMemos;
    if (memos !== undefined && memos.length > 0) payload.memos = [...memos];
    return payload;
  }

  /** Keys of inputResponses the handler never used (for diagnostics). */
  unusedResponseKeys(): string[] {
    return Object.keys(this.responses).filter((key) => !this.usedKeys.has(key));
  }

  /**
   * The last input-required signal raised in this call. When the handler returned normally although
   * this is set, a broad `catch` swallowed the signal (see `isInputRequired`).
   */
  get lastInputRequired(): InputRequiredException | undefined {
    return this.signal;
  }

  /** Ends the session: an elicit reached later (not awaited by the handler) then fails loudly. */
  close(): void {
    this.closed = true;
  }

  canElicit(mode: 'form' | 'url' = 'form'): boolean {
    return supportsElicitation(this.capabilities, mode);
  }

  /** With params, also checks `sampling.tools` / `sampling.context` where they need them. */
  canSample(params?: CreateMessageRequestParams): boolean {
    return supportsSampling(this.capabilities, params);
  }

  canListRoots(): boolean {
    return supportsRoots(this.capabilities);
  }

  /**
   * A different question at a known position: strict mode fails; re-ask mode drops the answers from
   * there on (they answered other questions) and asks the new one, a bounded number of times.
   */
  private replaceChanged(
    ordinal: number,
    old: LedgerSlot,
    next: LedgerSlot,
    policy: ChangedQuestionPolicy,
  ): LedgerSlot {
    if (policy !== 'reask') throw new ElicitationLedgerMismatchException(ordinal, old.key);
    if (this.reasks >= this.maxReasks) throw new ElicitationLedgerMismatchException(ordinal, old.key, this.reasks);
    this.reasks++;
    this.ledger.length = ordinal - 1;
    // Whatever the client sent this round answered the old questions: none of it lands from here on.
    this.stateSlots = Math.min(this.stateSlots, ordinal - 1);
    this.ledger.push(next);
    return next;
  }

  private merge(slot: LedgerSlot, request: InputRequest, validate: PendingInput['validate']): void {
    if (!Object.hasOwn(this.responses, slot.key)) return;
    const raw = this.responses[slot.key]!;
    const answer = readInputResponse(request, raw, this.maxAnswerChars);
    if (isRefusedAnswer(answer)) {
      this.refused.set(slot.key, answer.reason);
      return;
    }
    if (validate !== undefined && !validate(copyInputResponse(answer))) {
      this.refused.set(slot.key, 'refused by the handler');
      return;
    }
    slot.answer = answer;
    this.usedKeys.add(slot.key);
  }
}
