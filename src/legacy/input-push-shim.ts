import { Inject, Injectable } from '@nestjs/common';
import { isInputRound, type MethodHandler, type MethodResult } from '../calls/method-handler.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import type { InputRequest } from '../protocol/wire-types.js';
import type { LegacyChannel, LegacySession } from './legacy-channel.js';
import { type LegacyCall, legacyExchange } from './legacy-call.js';
import { LegacyInputError } from './legacy-input.error.js';
import { nextPushId } from './push-ids.js';
import { limitExceeded } from './session-limit.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpCallAbortedError } from '../protocol/mcp-call-aborted.error.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { MCP_MRTR_OPTIONS, type ResolvedMcpMrtrOptions } from '../mrtr/mcp-mrtr.options.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';

/** Revisions before this one know no elicitation `mode` (form was the only kind). */
const FIRST_VERSION_WITH_ELICITATION_MODES = '2025-11-25';

/**
 * Serves MRTR calls to 2025-era clients with the very same replay engine: when a round ends with
 * `input_required`, each input request goes to the client as a real server-to-client request
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`) on the channel, and once every
 * answer is in, the call runs again with them as `inputResponses` and the round's `requestState`,
 * exactly like a modern retry, until it completes. The engine never learns which era it served.
 */
@Injectable()
export class InputPushShim {
  constructor(
    @Inject(MCP_MRTR_OPTIONS) private readonly mrtr: ResolvedMcpMrtrOptions,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly telemetry: McpTelemetry,
  ) {}

  /**
   * Carries on a call whose first round (`first`) ended with `input_required` until it completes:
   * each retry runs the same method `handler` with the answers, in an exchange built from the
   * session like the first round's.
   */
  async complete(first: MethodResult, call: LegacyCall, handler: MethodHandler): Promise<MethodResult> {
    const { maxInputRounds } = this.limits;
    const { params, inbound, channel } = call;
    let result = first;
    for (let round = 1; isInputRound(result); round++) {
      const asked = result as Record<string, unknown>;
      if (!channel.canRequest) {
        throw new LegacyInputError(
          'This call needs input from the user, but the client accepts only application/json responses, so the server ' +
            'cannot send it requests: POST with "Accept: application/json, text/event-stream".',
          'no_stream',
        );
      }
      if (round > maxInputRounds) {
        throw new LegacyInputError(
          `This call asked for input more than ${maxInputRounds} times (limits.maxInputRounds) and was stopped.`,
          'too_many_rounds',
        );
      }
      const requests = isJsonObject(asked['inputRequests'])
        ? (asked['inputRequests'] as Record<string, InputRequest>)
        : {};
      for (const [key, request] of Object.entries(requests))
        this.telemetry.inputRequestPushed(inbound.trace, key, request);
      const inputResponses = await this.askAll(requests, call);
      const retry = { ...params, inputResponses, requestState: asked['requestState'] };
      result = await handler(legacyExchange(call, retry), inbound);
    }
    return result;
  }

  private async askAll(
    requests: Record<string, InputRequest>,
    call: LegacyCall,
  ): Promise<Record<string, Record<string, unknown>>> {
    const { legacy: session } = call;
    // The round is refused as a whole before anything goes out: no question is left waiting alone.
    const { maxPendingRequestsPerSession: max } = this.limits;
    const count = Object.keys(requests).length;
    if (session.state.pending.size + count > max) {
      throw limitExceeded(
        'maxPendingRequestsPerSession',
        max,
        `This call would leave more than ${max} questions waiting for the client's answers in this session`,
        McpErrorCode.InvalidRequest,
      );
    }
    const answers: Record<string, Record<string, unknown>> = {};
    await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        const answer = await this.ask(key, request, call);
        Object.defineProperty(answers, key, { value: answer, enumerable: true, writable: true, configurable: true });
      }),
    );
    return answers;
  }

  /**
   * Sends one request and waits for its response, the round timeout, or the call's end; inside the
   * observers' `aroundPush` when one wraps pushes (an OpenTelemetry CLIENT span, whose trace context
   * then rides in the request's `params._meta`).
   */
  private ask(key: string, request: InputRequest, call: LegacyCall): Promise<Record<string, unknown>> {
    const { legacy: session, channel, inbound } = call;
    const id = nextPushId();
    const params = paramsFor(request, session.claims.protocolVersion);
    const trace = inbound.trace;
    if (!trace || !this.telemetry.wrapsPushes) {
      return this.send(id, request.method, params, session, channel, inbound.signal);
    }
    const meta: Record<string, unknown> = {};
    return this.telemetry.push(trace, { id, key, method: request.method, meta }, () =>
      this.send(id, request.method, withMeta(params, meta), session, channel, inbound.signal),
    );
  }

  private send(
    id: string,
    method: string,
    params: Record<string, unknown>,
    session: LegacySession,
    channel: LegacyChannel,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const { pending } = session.state;
    const timeoutMs = this.mrtr.ttlMs;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        pending.delete(id);
      };
      const onAbort = () => {
        settle();
        reject(
          signal.reason instanceof Error
            ? signal.reason
            : new McpCallAbortedError('The call was cancelled', 'cancelled'),
        );
      };
      const timer = setTimeout(() => {
        settle();
        reject(
          new LegacyInputError(
            `The client did not answer ${method} within ${seconds(timeoutMs)} s (legacy.inputRoundTimeoutMs).`,
            'timeout',
          ),
        );
      }, timeoutMs);
      timer.unref();
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        method,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      channel.request({ jsonrpc: '2.0', id, method, params });
    });
  }
}

/** 300000 → "300", 1500 → "1.5". */
function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** `params` with the observers' `meta` entries added to its `_meta` (unchanged when they added none). */
function withMeta(params: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(meta).length === 0) return params;
  const own = params['_meta'];
  return { ...params, _meta: { ...(isJsonObject(own) ? own : {}), ...meta } };
}

/** The request's params as the session's revision spells them. */
function paramsFor(request: InputRequest, protocolVersion: string): Record<string, unknown> {
  const params = { ...(request.params ?? {}) } as Record<string, unknown>;
  if (
    request.method === 'elicitation/create' &&
    params['mode'] === 'form' &&
    protocolVersion < FIRST_VERSION_WITH_ELICITATION_MODES
  ) {
    delete params['mode'];
  }
  return params;
}
