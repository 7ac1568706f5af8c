import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ClientCapabilities, InputRequiredResult } from '../protocol/wire-types.js';
import { InvalidRequestStateException } from './exceptions/invalid-request-state.exception.js';
import { type InputRequiredException, isInputRequired } from './exceptions/input-required.exception.js';
import { McpClock } from '../core/mcp-clock.js';
import { argumentsDigest, verifyBinding } from './request-binding.js';
import type { RequestBinding, RequestStatePayload } from './request-state-payload.js';
import { RequestStateCodec } from './request-state-codec.js';
import { parseInputResponses, ReplaySession } from './replay-session.js';
import { type McpCallScope, mcpCallScope } from './mcp-call-scope.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { META_REFUSED_INPUT_RESPONSES } from '../protocol/meta-keys.js';
import { MCP_MRTR_OPTIONS, type ResolvedMcpMrtrOptions } from './mcp-mrtr.options.js';
import { LIMIT_DEFAULTS, MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';
import { logText } from '../protocol/log-text.js';

/** How a call's handler ended: with its value, or with a sealed input-required round. */
export type McpCallOutcome =
  | { readonly kind: 'complete'; readonly value: unknown }
  | { readonly kind: 'input_required'; readonly round: InputRequiredResult };

/** What the dispatcher knows about a call that may answer `input_required`. */
export interface MrtrCall {
  readonly method: string;
  /** Tool name, prompt name or resource URI. */
  readonly target: string;
  readonly arguments: unknown;
  readonly requestState: unknown;
  readonly inputResponses: unknown;
  readonly clientCapabilities: ClientCapabilities;
  readonly principal: string | null;
}

/**
 * Opens a call's replay session: verifies a present requestState (integrity, expiry, binding to
 * method, target, arguments and principal) before any handler code runs, and merges the answers.
 */
@Injectable()
export class MrtrEngine {
  private readonly logger = new Logger('McpElicitation');

  constructor(
    private readonly codec: RequestStateCodec,
    private readonly clock: McpClock,
    @Inject(MCP_MRTR_OPTIONS) private readonly options: ResolvedMcpMrtrOptions,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits = LIMIT_DEFAULTS,
  ) {}

  begin(call: MrtrCall): ReplaySession {
    const inputResponses = parseInputResponses(call.inputResponses);
    const binding = lazyBinding(call);
    let state: RequestStatePayload | undefined;
    if (call.requestState !== undefined && call.requestState !== null) {
      if (typeof call.requestState !== 'string') throw new InvalidRequestStateException('malformed');
      state = this.codec.open(call.requestState);
      verifyBinding(state, binding);
    }
    const session = new ReplaySession({
      binding,
      state,
      inputResponses,
      clientCapabilities: call.clientCapabilities,
      now: this.clock.now(),
      whenChanged: this.options.whenChanged,
      maxReasks: this.options.maxReasks,
      maxAnswerChars: this.limits.maxAnswerChars,
    });
    return session;
  }

  /**
   * Continues a flow whose ledger the server kept itself (a task's, between `tasks/update`
   * answers) rather than sealed into a requestState: the same binding check and replay rules as a
   * retry, without a token to open.
   */
  resume(call: Omit<MrtrCall, 'requestState'>, state: RequestStatePayload): ReplaySession {
    const binding = lazyBinding({ ...call, requestState: undefined });
    verifyBinding(state, binding);
    return new ReplaySession({
      binding,
      state,
      inputResponses: parseInputResponses(call.inputResponses),
      clientCapabilities: call.clientCapabilities,
      now: this.clock.now(),
      whenChanged: this.options.whenChanged,
      maxReasks: this.options.maxReasks,
      maxAnswerChars: this.limits.maxAnswerChars,
    });
  }

  /**
   * Runs `fn` (the handler, with `args`) in the call's scope. Resolves to the handler's value, or to the sealed
   * input-required round when it asked for input — whatever became of the signal on its way out (an
   * interceptor that wrapped the result, a filter or a catch block that swallowed it): once a
   * question was asked, the answer to the client is that question.
   */
  async run<A extends unknown[]>(
    session: ReplaySession,
    exchange: McpExchange,
    fn: (...args: A) => unknown,
    ...args: A
  ): Promise<McpCallOutcome> {
    const scope: McpCallScope = { exchange, session, seal: (signal) => this.seal(session, signal) };
    let value: unknown;
    try {
      value = await mcpCallScope.run(scope, fn, ...args);
    } catch (error) {
      return this.settle(session, undefined, true, error);
    }
    return this.settle(session, value, false);
  }

  /**
   * The outcome of a handler that returned `value` or (`failed`) threw `error`. A question the
   * application intercepted on its way out (a catch block, an interceptor or an exception filter)
   * is still the answer, and logged, since the code that caught it ran.
   */
  private settle(session: ReplaySession, value: unknown, failed: boolean, error?: unknown): McpCallOutcome {
    session.close();
    const signalled = failed && isInputRequired(error);
    if (failed && !signalled && !session.lastInputRequired) throw error;
    const signal = session.lastInputRequired;
    if (!signal) return { kind: 'complete', value };
    const round = this.seal(session, signal);
    if (!signalled && value !== round) this.warnIntercepted(session);
    return { kind: 'input_required', round };
  }

  private warnIntercepted(session: ReplaySession): void {
    const { method, target } = session.binding;
    this.logger.warn(
      `${method} ${logText(target)}: the input request was intercepted on its way out ` +
        '(a catch block, an interceptor or an exception filter) and the round was answered anyway. ' +
        'Code that caught it has run; in handlers, rethrow it with `if (isInputRequired(e)) throw e;`',
    );
  }

  private seal(session: ReplaySession, signal: InputRequiredException): InputRequiredResult {
    if (session.sealedRound) return session.sealedRound;
    const round: InputRequiredResult = {
      resultType: 'input_required',
      inputRequests: signal.inputRequests,
      requestState: this.codec.seal(session.nextPayload(signal)),
    };
    if (session.refusedAnswers.size > 0) {
      round._meta = { [META_REFUSED_INPUT_RESPONSES]: Object.fromEntries(session.refusedAnswers) };
    }
    session.sealedRound = round;
    return round;
  }
}

/**
 * The arguments digest costs a canonicalisation and a hash: only pay it when a token is read or
 * sealed (a class with a lazy getter: see ARCHITECTURE.md, "Objects on the request path").
 */
class LazyBinding implements RequestBinding {
  readonly method: string;
  readonly target: string;
  readonly principal: string | null;
  readonly #args: unknown;
  #digest: string | undefined;

  constructor(call: MrtrCall) {
    this.method = call.method;
    this.target = call.target;
    this.principal = call.principal;
    this.#args = call.arguments;
  }

  get argsDigest(): string {
    return (this.#digest ??= argumentsDigest(this.#args));
  }
}

function lazyBinding(call: MrtrCall): RequestBinding {
  return new LazyBinding(call);
}
