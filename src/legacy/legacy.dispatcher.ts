import { Inject, Injectable } from '@nestjs/common';
import { McpDispatcher } from '../dispatch/mcp.dispatcher.js';
import { McpInbound } from '../calls/mcp-inbound.js';
import { McpRequestPipeline } from '../dispatch/mcp-request.pipeline.js';
import { DiscoverMethods } from '../methods/discover.methods.js';
import { ResultStamp } from '../calls/result-stamp.js';
import { RequestExchange } from '../calls/request-exchange.js';
import { toolErrorResult } from '../calls/tool-result.normalizer.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpPrincipalSource } from '../core/mcp-principal.source.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { isJsonRpcId, type JsonRpcId, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { isLoggingLevel } from '../protocol/logging-level.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import type { McpExchange, McpTransportInfo } from '../protocol/mcp-exchange.js';
import { McpMethod, MRTR_METHODS } from '../protocol/mcp-methods.js';
import { isModernOnlyMethod } from '../protocol/protocol-era.js';
import { META_PROGRESS_TOKEN } from '../protocol/meta-keys.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import { answerInitialize, type InitializeAnswer } from './initialize-answer.js';
import { InputPushShim } from './input-push.shim.js';
import type { LegacyChannel, LegacySession } from './legacy-channel.js';
import { LegacyInputError } from './legacy-input.error.js';
import { LegacySessions } from './legacy-sessions.js';
import { answerPush } from './push-answer.js';
import { CallCancellation } from './call-cancellation.js';
import { toLegacyResult } from './legacy-result.js';
import { McpCallAbortedError } from '../protocol/mcp-call-aborted.error.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

/** How `initialize` ended: its response (and status), and the claims of the new session when it succeeded. */
export interface InitializeOutcome {
  readonly status: number;
  readonly response: JsonRpcResponse;
  readonly claims?: InitializeAnswer['claims'];
}

/** The signal of `initialize`, which nothing can abort: it is answered at once. */
const NEVER_ABORTED = new AbortController().signal;

/** One 2025-era request: its id, method and params, already checked for shape. */
export interface LegacyRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

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
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
    private readonly sessions: LegacySessions,
  ) {}

  /** The capabilities `initialize` announces: what is registered, plus logging (setLevel is served). */
  capabilities(): ServerCapabilities {
    return { ...this.discover.capabilities(), logging: {} };
  }

  /**
   * Negotiates `initialize` through the request pipeline; on success the transport seals the
   * returned claims into its session id, else it sends the error response.
   */
  async initialize(request: LegacyRequest, transport: McpTransportInfo): Promise<InitializeOutcome> {
    let claims: InitializeAnswer['claims'] | undefined;
    const inbound = new McpInbound({ transport, signal: () => NEVER_ABORTED, notify: () => undefined });
    const outcome = await this.pipeline.run(
      { era: 'legacy', ...request, params: request.params as Record<string, unknown>, inbound },
      async (traced) => {
        const answer = answerInitialize(request.params, {
          capabilities: () => this.capabilities(),
          serverInfo: this.stamp.serverInfo,
          instructions: this.discover.instructions,
          principal: () => this.principalOf(transport),
        });
        traced.trace!.protocolVersion = answer.claims.protocolVersion;
        traced.trace!.principal = answer.claims.principal;
        claims = answer.claims;
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
    const outcome = await this.pipeline.run(
      // The claims carry the session's negotiated version, id and principal.
      { era: 'legacy', id, method, params: params as Record<string, unknown>, inbound, session: session.claims },
      (traced) => this.cancellable(request, session, channel, cancel, traced),
    );
    return outcome?.response;
  }

  /** The call as `notifications/cancelled` can stop it: cancelled, it ends without a response. */
  private async cancellable(
    request: LegacyRequest,
    session: LegacySession,
    channel: LegacyChannel,
    cancel: CallCancellation,
    inbound: McpInbound,
  ): Promise<Record<string, unknown> | undefined> {
    const { calls } = session.state;
    calls.set(request.id, cancel);
    try {
      const result = await this.answer(request, session, channel, inbound);
      return cancel.cancelled ? undefined : result;
    } catch (error) {
      if (cancel.cancelled) return undefined;
      return toolErrorFor(request, error);
    } finally {
      if (calls.get(request.id) === cancel) calls.delete(request.id);
    }
  }

  /** `notifications/cancelled` aborts the named call; every other notification needs nothing. */
  notification(method: string, params: unknown, session: LegacySession): void {
    if (method !== 'notifications/cancelled' || !isJsonObject(params) || !isJsonRpcId(params['requestId'])) return;
    session.state.calls
      .get(params['requestId'])
      ?.cancel(new McpCallAbortedError('Cancelled by the client', 'cancelled'));
  }

  /** Hands a client's response to the pushed request it answers; false when none is waiting for it. */
  response(message: Record<string, unknown>, session: LegacySession): boolean {
    return answerPush(session.state, message, this.options.maxJsonDepth);
  }

  private async answer(
    request: LegacyRequest,
    session: LegacySession,
    channel: LegacyChannel,
    inbound: McpInbound,
  ): Promise<Record<string, unknown>> {
    const { method, params } = request;
    switch (method) {
      case 'ping':
        return {};
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
    if (isModernOnlyMethod(method) || !this.dispatcher.hasMethod(method)) throw McpError.methodNotFound(method);
    const exchangeFor = (callParams: Readonly<Record<string, unknown>>) =>
      legacyExchange(request, callParams, session, inbound);
    const result = await this.dispatcher.call(exchangeFor(params), inbound);
    // A call that asks its client for input goes on through the push shim until it completes.
    const completed =
      result['resultType'] === 'input_required' && MRTR_METHODS.has(method)
        ? await this.shim.complete(result, params, exchangeFor, inbound, session, channel)
        : result;
    return toLegacyResult(completed);
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

/** The exchange of one round of a legacy call: the session's claims stand in for the `_meta` envelope. */
function legacyExchange(
  request: LegacyRequest,
  params: Readonly<Record<string, unknown>>,
  session: LegacySession,
  inbound: McpInbound,
): McpExchange {
  const meta = params['_meta'];
  const progressToken = isJsonObject(meta) ? meta[META_PROGRESS_TOKEN] : undefined;
  const { claims, state } = session;
  return new RequestExchange(
    {
      id: request.id,
      method: request.method,
      params,
      protocolVersion: claims.protocolVersion,
      clientCapabilities: claims.clientCapabilities,
      clientInfo: claims.clientInfo,
      logLevel: state.logLevel ?? 'debug',
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
    },
    inbound,
  );
}
