import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';
import type { ClientCapabilities, InputRequiredResult } from '../protocol/wire-types.js';
import { InvalidRequestStateException } from './exceptions/invalid-request-state.exception.js';
import type { InputRequiredException } from './exceptions/input-required.exception.js';
import { McpClock } from './mcp-clock.js';
import { argumentsDigest, verifyBinding } from './request-binding.js';
import type { RequestBinding, RequestStatePayload } from './request-state.payload.js';
import { RequestStateCodec } from './request-state.codec.js';
import { parseInputResponses, ReplaySession } from './replay-session.js';
import { replaySessionStorage } from './replay-session.storage.js';
import { META_REFUSED_INPUT_RESPONSES } from '../protocol/meta-keys.js';

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

const sessionCodecs = new WeakMap<ReplaySession, RequestStateCodec>();
const sealedRounds = new WeakMap<ReplaySession, InputRequiredResult>();

/**
 * Opens a call's replay session: verifies a present requestState (integrity, expiry, binding to
 * method, target, arguments and principal) before any handler code runs, and merges the answers.
 */
@Injectable()
export class MrtrEngine {
  constructor(
    private readonly codec: RequestStateCodec,
    private readonly clock: McpClock,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
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
      whenChanged: this.options.mrtr.whenChanged,
      maxReasks: this.options.mrtr.maxReasks,
      maxAnswerChars: this.options.mrtr.maxAnswerBytes,
    });
    sessionCodecs.set(session, this.codec);
    return session;
  }

  run<T>(session: ReplaySession, fn: () => T): T {
    return replaySessionStorage.run(session, fn);
  }

  /**
   * The input-required round of a call whose handler asked for input, whatever became of the
   * signal on its way out (an interceptor that wrapped the result, a filter or a catch block that
   * swallowed it): once a question was asked, the answer to the client is that question.
   */
  pendingRound(session: ReplaySession): InputRequiredResult | undefined {
    const sealed = sealedRounds.get(session);
    if (sealed) return sealed;
    const signal = session.lastInputRequired;
    return signal ? sealRound(session, signal) : undefined;
  }
}

/** Seals the current call's ledger into the wire result of an input-required round. */
export function sealInputRequired(signal: InputRequiredException): InputRequiredResult {
  const session = replaySessionStorage.getStore();
  if (!session) throw signal;
  return sealRound(session, signal);
}

function sealRound(session: ReplaySession, signal: InputRequiredException): InputRequiredResult {
  const codec = sessionCodecs.get(session);
  if (!codec) throw signal;
  const round: InputRequiredResult = {
    resultType: 'input_required',
    inputRequests: signal.inputRequests,
    requestState: codec.seal(session.nextPayload(signal)),
  };
  if (session.refusedAnswers.size > 0) {
    round._meta = { [META_REFUSED_INPUT_RESPONSES]: Object.fromEntries(session.refusedAnswers) };
  }
  sealedRounds.set(session, round);
  return round;
}

/** The arguments digest costs a canonicalisation and a hash: only pay it when a token is read or sealed. */
function lazyBinding(call: MrtrCall): RequestBinding {
  let digest: string | undefined;
  return {
    method: call.method,
    target: call.target,
    principal: call.principal,
    get argsDigest() {
      return (digest ??= argumentsDigest(call.arguments));
    },
  };
}
