import { Inject, Injectable } from '@nestjs/common';
import { McpDispatcher } from '../dispatch/mcp-dispatcher.js';
import { McpInbound } from '../calls/mcp-inbound.js';
import { McpRequestPipeline } from '../dispatch/mcp-request-pipeline.js';
import { DiscoverMethods } from '../methods/discover.methods.js';
import { ResultStamp } from '../calls/result-stamp.js';
import { toolErrorResult } from '../calls/tool-result-normalizer.js';
import { isInputRound, type MethodResult } from '../calls/method-handler.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { isJsonRpcId, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { isLoggingLevel } from '../protocol/logging-level.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import { McpMethod, MRTR_METHODS } from '../protocol/mcp-methods.js';
import { isModernOnlyMethod } from '../protocol/protocol-era.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import { answerInitialize, type InitializeAnswer } from './initialize-answer.js';
import { InputPushShim } from './input-push-shim.js';
import type { LegacyChannel, LegacySession } from './legacy-channel.js';
import { LegacyInputError } from './legacy-input.error.js';
import { LegacySessions } from './legacy-sessions.js';
import { answerPush } from './push-answer.js';
import { CallCancellation } from './call-cancellation.js';
import { type LegacyCall, legacyExchange, type LegacyRequest } from './legacy-call.js';
import { McpCallAbortedError } from '../protocol/mcp-call-aborted.error.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';
import { randomId } from '../core/random-pool.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';

/**
 * How `initialize` ended: its response (and status), and the claims of the new session when it
 * succeeded, with the session's id when it was minted here (the transport seals them into the
 * session id it issues).
 */
export interface InitializeOutcome {
  readonly status: number;
  readonly response: JsonRpcResponse;
  readonly claims?: InitializeAnswer['claims'] & { readonly id?: string };
}

/** The signal of `initialize`, which nothing can abort: it is answered at once. */
const NEVER_ABORTED = new AbortController().signal;

/** What only a 2025-era session answers itself; every other method goes to the shared method table. */
const SESSION_METHODS: ReadonlySet<string> = new Set([
  'ping',
  'initialize',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/**
 * The 2025-era leg, whatever the transport: `initialize` (version negotiation and the session's
 * claims), `ping`, `logging/setLevel`, `resources/subscribe` / `unsubscribe`, notifications and the
 * client's responses to pushed requests; every other method runs through the same method table as
 * modern requests, with an exchange built from the session, and leaves in its 2025 shape. Errors
 * are JSON-RPC error responses (HTTP 200: the 2025 transport has no status mapping).
 */
@Injectable()
export class LegacyDispatcher {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly pipeline: McpRequestPipeline,
    private readonly discover: DiscoverMethods,
    private readonly stamp: ResultStamp,
    private readonly principals: McpPrincipalSource,
    private readonly resources: McpResourceRegistry,
    private readonly shim: InputPushShim,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly sessions: LegacySessions,
    private readonly telemetry: McpTelemetry,
  ) {}

  /** The capabilities `initialize` announces: what is registered, plus logging (setLevel is served). */
  capabilities(): ServerCapabilities {
    return { ...this.discover.capabilities(), logging: {} };
  }

  /**
   * Negotiates `initialize` through the request pipeline; on success the transport seals the
   * returned claims into its session id, else it sends the error response. The session's id is
   * `sessionId` when the transport has one already, else minted here over HTTP, so that observers
   * see it on `initialize` (`mcp.session.id`).
   */
  async initialize(
    request: LegacyRequest,
    transport: McpTransportInfo,
    sessionId: string | undefined = transport.kind === 'http' ? randomId() : undefined,
  ): Promise<InitializeOutcome> {
    let claims: InitializeOutcome['claims'];
    const inbound = new McpInbound({ transport, signal: () => NEVER_ABORTED, notify: () => undefined });
    const outcome = await this.pipeline.run(
      { era: 'legacy', ...request, params: request.params as Record<string, unknown>, inbound },
      async ({ inbound: traced }) => {
        const answer = answerInitialize(request.params, {
          capabilities: () => this.capabilities(),
          serverInfo: this.stamp.serverInfo,
          instructions: this.discover.instructions,
          principal: () => this.principalOf(transport),
        });
        const trace = traced.trace!;
        trace.protocolVersion = answer.claims.protocolVersion;
        trace.principal = answer.claims.principal;
        if (sessionId !== undefined) trace.sessionId = sessionId;
        claims = sessionId === undefined ? answer.claims : { ...answer.claims, id: sessionId };
        return answer.result;
      },
    );
    return { status: outcome!.status, response: outcome!.response, claims };
  }

  /** Who is calling on this transport, to compare with the principal the session was opened by. */
  principalOf(transport: McpTransportInfo): string | null {
    return this.principals.resolve({ transport });
  }

  /**
   * Answers one request of an open session through the request pipeline; resolves to undefined
   * when the client cancelled it (`notifications/cancelled`): no response is sent then. Errors are
   * JSON-RPC error responses; the transport sends them with HTTP 200.
   */
  async request(
    request: LegacyRequest,
    session: LegacySession,
    channel: LegacyChannel,
  ): Promise<JsonRpcResponse | undefined> {
    const cancel = new CallCancellation();
    const inbound = new McpInbound({
      transport: channel.transport,
      signal: () => cancel.signal(() => channel.signal),
      notify: (notification) => channel.notify(notification),
    });
    const { id, method, params } = request;
    const call: LegacyCall = {
      era: 'legacy',
      id,
      method,
      params: params as Record<string, unknown>,
      inbound,
      // The claims carry the session's negotiated version, id and principal.
      session: session.claims,
      legacy: session,
      channel,
      cancel,
    };
    const outcome = await this.pipeline.run(call, this.answer);
    return outcome?.response;
  }

  /**
   * The 2025-era step: what only 2025 has, or the method table with an exchange built from the
   * session and, for a call that asks, the push shim; the method's result is the 2025 shape as it is (only the 2026-07-28 leg stamps it). A call
   * that `notifications/cancelled` stopped ends without a response.
   */
  private readonly answer = async (call: LegacyCall): Promise<MethodResult | undefined> => {
    const { id, method, params, inbound, legacy: session, cancel } = call;
    const { calls } = session.state;
    calls.set(id, cancel);
    try {
      let result: MethodResult;
      if (SESSION_METHODS.has(method)) {
        result = await this.sessionMethod(call);
      } else {
        // The method table both eras share, with an exchange built from the session; a call that
        // asks for input goes on through the push shim until it completes.
        const handler = isModernOnlyMethod(method) ? undefined : this.dispatcher.handlerOf(method);
        if (!handler) throw McpError.methodNotFound(method);
        result = await handler(legacyExchange(call, params), inbound);
        if (isInputRound(result) && MRTR_METHODS.has(method)) {
          result = await this.shim.complete(result, call, handler);
        }
      }
      return cancel.cancelled ? undefined : result;
    } catch (error) {
      if (cancel.cancelled) return undefined;
      return toolErrorFor(call, error);
    } finally {
      if (calls.get(id) === cancel) calls.delete(id);
    }
  };

  /** `notifications/cancelled` aborts the named call; every other notification needs nothing. Observers see each. */
  notification(method: string, params: unknown, session: LegacySession): void {
    if (method === 'notifications/cancelled' && isJsonObject(params) && isJsonRpcId(params['requestId'])) {
      session.state.calls
        .get(params['requestId'])
        ?.cancel(new McpCallAbortedError('Cancelled by the client', 'cancelled'));
    }
    // Over HTTP every request's session records its transport; a stdio session, once initialized.
    const transport = session.state.opened?.transport ?? 'stdio';
    this.telemetry.notified('legacy', transport, method, params, session.claims);
  }

  /** Hands a client's response to the pushed request it answers; false when none is waiting for it. */
  response(message: Record<string, unknown>, session: LegacySession): boolean {
    return answerPush(session.state, message, this.limits.maxJsonDepth);
  }

  /** What only a 2025-era session answers (`SESSION_METHODS`). */
  private async sessionMethod(call: LegacyCall): Promise<Record<string, unknown>> {
    const { method, params, legacy: session } = call;
    switch (method) {
      case 'initialize':
        throw McpError.invalidRequest('The session is already initialized');
      case 'logging/setLevel': {
        if (!isLoggingLevel(params['level']))
          throw McpError.invalidParams(
            'params.level must be a logging level (debug, info, notice, warning, error, ...)',
          );
        await this.sessions.setLogLevel(session.state, params['level']);
        return {};
      }
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        if (this.resources.size === 0) throw McpError.methodNotFound(method);
        const uri = params['uri'];
        if (typeof uri !== 'string') throw McpError.invalidParams('params.uri must be a string');
        await this.sessions.setSubscribed(session.state, uri, method === 'resources/subscribe');
        return {};
      }
    }
    return {}; // ping
  }
}

/**
 * What a 2025-era client is told of a failure that its era words differently: a tool call whose
 * pushed questions went wrong, or that needs a capability the client did not declare in
 * `initialize`, is an `isError` result the model can read; a pushed question that went wrong in
 * another method is -32600. Every other failure is thrown on, to the pipeline's mapping.
 */
function toolErrorFor(request: LegacyRequest, error: unknown): Record<string, unknown> {
  const isToolCall = request.method === McpMethod.ToolsCall;
  if (error instanceof LegacyInputError) {
    if (isToolCall) return { ...toolErrorResult(error.message) };
    throw McpError.invalidRequest(error.message);
  }
  if (isToolCall && error instanceof McpError && error.code === McpErrorCode.MissingRequiredClientCapability) {
    const required = JSON.stringify(
      (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities ?? {},
    );
    return {
      ...toolErrorResult(`This tool needs a client capability that was not declared in initialize: ${required}`),
    };
  }
  throw error;
}
