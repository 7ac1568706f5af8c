import { Injectable } from '@nestjs/common';
import type { CreateMessageRequestParams, CreateMessageResult, ListRootsResult } from '../protocol/wire-types.js';
import type { RequestedSchemaBuilder } from '../schema/requested-schema-builder.js';
import {
  type BatchAnswers,
  type ElicitAnswer,
  InputBatchBuilder,
  type InputRequestOptions,
  PlannedInput,
  type UrlElicitAnswer,
} from './input-batch-builder.js';
import type { ReplaySession } from './replay-session.js';
import { mcpCallScope } from './mcp-call-scope.js';

const PLANS = new InputBatchBuilder();

/**
 * Asks the user (through the client) for input in the middle of a tool call, prompt or resource
 * read, with the 2026-07-28 stateless round-trip model (MRTR). Inject it anywhere: it is a
 * singleton that finds the current call through async context.
 *
 * Every method resolves or rejects at once: an answer already given on a previous round comes back
 * immediately; a missing one ends this run of the handler, the client is asked, and the handler
 * runs again from the top when it retries. See {@link ElicitationContext.elicit} for what that
 * means for your code.
 *
 * @publicApi
 */
@Injectable()
export class ElicitationContext {
  /**
   * Asks the user to fill in a form and returns their answer, typed from the schema:
   *
   * ```ts
   * const answer = await this.elicitation.elicit('Where should we ship it?', (s) =>
   *   s.string('street').string('city').choose('speed', ['standard', 'express'], { optional: true }),
   * );
   * if (answer.action !== 'accept') return 'Order not placed.';
   * answer.content.city; // string
   * ```
   *
   * **Idempotency contract.** This call does not wait: when the answer is not known yet, the
   * handler is stopped, the question goes to the client, and the handler is run again *from the
   * top* when the client retries with the answer. So all code before the last `elicit` re-runs on
   * every round trip:
   * - it must ask the same questions in the same order (otherwise the call fails with
   *   `ElicitationLedgerMismatchException`); no random values, timestamps or changing data in them;
   * - side effects (charging a card, sending mail, writing rows) belong *after* the final `elicit`,
   *   or behind your own idempotency keys;
   * - a broad `catch` around it must rethrow the signal: `if (isInputRequired(e)) throw e;`.
   *
   * Declined or cancelled forms are ordinary answers (`action: 'decline' | 'cancel'`). An accepted
   * answer that does not fit the schema is never returned; the question is asked again.
   *
   * @param options.key names the request on the wire (default `elicit-<ordinal>`, 1-based).
   * @throws McpError `-32021` when the client did not declare form elicitation; check
   *   {@link canElicit} first to adapt instead.
   */
  async elicit<T>(
    message: string,
    schema: (builder: RequestedSchemaBuilder) => RequestedSchemaBuilder<T>,
    options?: InputRequestOptions,
  ): Promise<ElicitAnswer<T>> {
    return this.askOne(() => PLANS.elicit(message, schema, options));
  }

  /**
   * Sends the user to a URL (sign-in, payment, anything that must not go through a form). `accept`
   * only means they agreed to open it; whether the out-of-band step finished is for your code to
   * check when the handler runs again. Same idempotency contract as {@link elicit}.
   */
  async elicitUrl(message: string, url: string, options?: InputRequestOptions): Promise<UrlElicitAnswer> {
    return this.askOne(() => PLANS.elicitUrl(message, url, options));
  }

  /** Asks the client's model for a completion. Deprecated by the spec (SEP-2577), still allowed. */
  async sample(params: CreateMessageRequestParams, options?: InputRequestOptions): Promise<CreateMessageResult> {
    return this.askOne(() => PLANS.sample(params, options));
  }

  /** Asks the client for its roots. Deprecated by the spec (SEP-2577), still allowed. */
  async listRoots(options?: InputRequestOptions): Promise<ListRootsResult> {
    return this.askOne(() => PLANS.listRoots(options));
  }

  /**
   * Asks several questions in one round trip and returns every answer, typed by position:
   *
   * ```ts
   * const [contact, summary, roots] = await this.elicitation.batch((b) => [
   *   b.elicit('Contact details?', (s) => s.string('email', { format: 'email' })),
   *   b.sample({ messages, maxTokens: 200 }),
   *   b.listRoots(),
   * ]);
   * ```
   *
   * The round is answered as a whole: when some answers are missing, all of them are asked for
   * together. Same idempotency contract as {@link elicit}.
   */
  async batch<const P extends readonly PlannedInput<unknown>[]>(
    plan: (builder: InputBatchBuilder) => P,
  ): Promise<BatchAnswers<P>> {
    const session = currentSession();
    const planned = plan(PLANS);
    if (!Array.isArray(planned) || !planned.every((p) => p instanceof PlannedInput)) {
      throw new TypeError('batch(plan): the plan callback must return an array of builder calls (b.elicit(...), ...)');
    }
    const answers = session.ask(planned.map((p) => p.input));
    return planned.map((p, i) => p.read(answers[i]!)) as BatchAnswers<P>;
  }

  /**
   * Computes a value once per flow: the first run of the handler that reaches this call runs
   * `compute`, and the value is sealed into the requestState, so the later runs of the same flow
   * (each round trip runs the handler again from the top) get it back without running `compute`
   * again, on whichever node serves them. For work before an `elicit` that must not be repeated or
   * must not change between rounds, such as a call to another server:
   *
   * ```ts
   * const quote = await this.elicitation.once(() => this.pricing.quote(args.items));
   * const answer = await this.elicitation.elicit(`Pay ${quote.total}?`, (s) => s.boolean('ok'));
   * ```
   *
   * - Call `once` in the same order on every run (like `elicit`, each is known by its position).
   * - The value travels as JSON: every run, the first included, gets its JSON copy (a `Date`
   *   becomes a string, `undefined` becomes `null`); one JSON cannot carry is refused
   *   (`TypeError`).
   * - It counts towards `limits.maxRequestStateChars`: a flow whose values no longer fit fails with
   *   -32602 `state_too_large`. Keep them small.
   * - A failing `compute` is not recorded: the next run calls it again.
   * - It memoises within one flow only: a new call (no requestState) computes again.
   */
  async once<T>(compute: () => T | Promise<T>): Promise<T> {
    return currentSession().once(compute);
  }

  /**
   * The id of the current flow: the same on every round of one call's elicitation flow (it travels
   * sealed in the requestState), new for each fresh call. Key your own idempotency records on it,
   * e.g. an order created once per flow however often the final round is replayed.
   */
  get flowId(): string {
    return currentSession().flowId;
  }

  /** Whether the client declared elicitation in this mode on this request. */
  canElicit(mode: 'form' | 'url' = 'form'): boolean {
    return currentSession().canElicit(mode);
  }

  /** Whether the client declared sampling (with `params`: also the tools/context it needs). */
  canSample(params?: CreateMessageRequestParams): boolean {
    return currentSession().canSample(params);
  }

  /** Whether the client declared roots. */
  canListRoots(): boolean {
    return currentSession().canListRoots();
  }

  private askOne<A>(plan: () => PlannedInput<A>): A {
    const session = currentSession();
    const planned = plan();
    const [answer] = session.ask([planned.input]);
    return planned.read(answer!);
  }
}

function currentSession(): ReplaySession {
  const session = mcpCallScope.getStore()?.session;
  if (session === undefined) {
    throw new Error('ElicitationContext used outside an MCP tools/call, prompts/get or resources/read handler');
  }
  return session;
}
