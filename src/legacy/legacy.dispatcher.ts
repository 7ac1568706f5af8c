import { Inject, Injectable } from '@nestjs/common';
import { jsonBoundsProblem } from '../protocol/json-bounds.js';
import { failure } from '../dispatch/mcp.dispatcher.js';
import { McpDispatcher } from '../dispatch/mcp.dispatcher.js';
import type { McpInbound } from '../calls/mcp-inbound.js';
import { DiscoverMethods } from '../methods/discover.methods.js';
import { ResultStamp } from '../calls/result-stamp.js';
import { ModernExchange } from '../dispatch/modern-exchange.js';
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
import { META_PROGRESS_TOKEN } from '../protocol/meta-keys.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import { answerInitialize, type InitializeAnswer } from './initialize-answer.js';
import { InputPushShim } from './input-push.shim.js';
import type { LegacyChannel, LegacySession } from './legacy-channel.js';
import { LegacyInputError } from './legacy-input.error.js';
import { LegacySessions } from './legacy-sessions.js';
import { answerPush } from './push-answer.js';
import { CallCancellation } from './call-cancellation.js';
import { LegacyInbound } from './legacy-inbound.js';
import { toLegacyResult } from './legacy-result.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { type McpRequestTrace, outcomeOfResponse, startTrace } from '../telemetry/mcp-request-trace.js';
import { McpCallAbortedError } from '../protocol/mcp-call-aborted.error.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

/** Methods of 2026-07-28 alone: a 2025-era client has no business calling them. */
const MODERN_ONLY: ReadonlySet<string> = new Set([McpMethod.Discover, McpMethod.SubscriptionsListen]);

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
    private readonly discover: DiscoverMethods,
    private readonly stamp: ResultStamp,
    private readonly principals: McpPrincipalSource,
    private readonly resources: McpResourceRegistry,
    private readonly shim: InputPushShim,
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
    private readonly telemetry: McpTelemetry,
    private readonly sessions: LegacySessions,
  ) {}

  /** The capabilities `initialize` announces: what is registered, plus logging (setLevel is served). */
  capabilities(): ServerCapabilities {
    return { ...this.discover.capabilities(), logging: {} };
  }

  /** Negotiates `initialize`; the transport seals the returned claims into its session id. */
  initialize(request: LegacyRequest, transport: McpTransportInfo): InitializeAnswer {
    const trace = startTrace('legacy', transport, request.id, request.method, request.params);
    try {
      const answer = answerInitialize(request.params, {
        maxJsonDepth: this.options.maxJsonDepth,
        capabilities: () => this.capabilities(),
        serverInfo: this.stamp.serverInfo,
        instructions: this.discover.instructions,
        principal: () => this.principalOf(transport),
      });
      trace.protocolVersion = answer.result['protocolVersion'] as string;
      trace.principal = answer.claims.principal;
      this.telemetry.recordSettled(trace, { kind: 'complete' });
      return answer;
    } catch (error) {
      const code = error instanceof McpError ? error.code : McpErrorCode.InternalError;
      this.telemetry.recordSettled(trace, { kind: 'protocol_error', code });
      throw error;
    }
  }

  /** Who is calling on this transport, to compare with the principal the session was opened by. */
  principalOf(transport: McpTransportInfo): string | null {
    return this.principals.resolve(bareExchange(transport));
  }

  /**
   * Answers one request of an open session. Resolves to undefined when the client cancelled it
   * (`notifications/cancelled`): no response is sent then. Not an `async` function: the observed
   * answer is already a promise (`respond` is asynchronous), handed on as it is.
   */
  request(
    request: LegacyRequest,
    session: LegacySession,
    channel: LegacyChannel,
  ): Promise<JsonRpcResponse | undefined> {
    const trace = startTrace('legacy', channel.transport, request.id, request.method, request.params);
    trace.protocolVersion = session.claims.protocolVersion;
    trace.sessionId = session.claims.id;
    trace.principal = session.claims.principal;
    let status: number | undefined;
    return Promise.resolve(
      this.telemetry.observe(
        trace,
        () =>
          this.respond(request, session, channel, trace, (error) => {
            if (error instanceof McpError) status = error.httpStatus;
          }),
        (response) => outcomeOfResponse(response, status),
      ),
    );
  }

  private async respond(
    request: LegacyRequest,
    session: LegacySession,
    channel: LegacyChannel,
    trace: McpRequestTrace,
    failed: (error: unknown) => void,
  ): Promise<JsonRpcResponse | undefined> {
    const { id } = request;
    const key = JSON.stringify(id);
    const cancel = new CallCancellation();
    session.state.calls.set(key, cancel);
    const signal = () => cancel.signal(() => channel.signal);
    try {
      const result = await this.answer(request, session, channel, signal, trace);
      return cancel.cancelled ? undefined : { jsonrpc: '2.0', id, result };
    } catch (error) {
      if (cancel.cancelled) return undefined;
      failed(error);
      return this.failure(request, error);
    } finally {
      if (session.state.calls.get(key) === cancel) session.state.calls.delete(key);
    }
  }

  /** `notifications/cancelled` aborts the named call; every other notification needs nothing. */
  notification(method: string, params: unknown, session: LegacySession): void {
    if (method !== 'notifications/cancelled' || !isJsonObject(params) || !isJsonRpcId(params['requestId'])) return;
    session.state.calls
      .get(JSON.stringify(params['requestId']))
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
    signal: () => AbortSignal,
    trace: McpRequestTrace,
  ): Promise<Record<string, unknown>> {
    const { method, params } = request;
    const problem = jsonBoundsProblem(params, this.options.maxJsonDepth);
    if (problem) throw McpError.invalidParams(`params ${problem}`);
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
    if (MODERN_ONLY.has(method) || !this.dispatcher.hasMethod(method)) throw McpError.methodNotFound(method);
    const inbound = new LegacyInbound(channel, signal, trace);
    const exchangeFor = (callParams: Readonly<Record<string, unknown>>) =>
      legacyExchange(request, callParams, session, inbound);
    const result = MRTR_METHODS.has(method)
      ? await this.shim.run(params, exchangeFor, inbound, session, channel)
      : await this.dispatcher.call(exchangeFor(params), inbound);
    return toLegacyResult(result);
  }

  private failure(request: LegacyRequest, error: unknown): JsonRpcResponse {
    const isToolCall = request.method === McpMethod.ToolsCall;
    if (error instanceof LegacyInputError) {
      if (isToolCall) return toolError(request.id, error.message);
      return failure(request.id, McpError.invalidRequest(error.message)).response;
    }
    if (isToolCall && error instanceof McpError && error.code === McpErrorCode.MissingRequiredClientCapability) {
      const required = JSON.stringify(
        (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities ?? {},
      );
      return toolError(
        request.id,
        `This tool needs a client capability that was not declared in initialize: ${required}`,
      );
    }
    return this.dispatcher.toFailure(request.id, request.method, error).response;
  }
}

/** A tool call that failed in a way the model can read about: an `isError` result. */
function toolError(id: JsonRpcId, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result: { ...toolErrorResult(message) } };
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
  return new ModernExchange(
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

/** The signal of an exchange that is only read for its transport. */
const NEVER_ABORTED = new AbortController().signal;

/** Enough of an exchange for a principal source, which reads the transport. */
function bareExchange(transport: McpTransportInfo): McpExchange {
  return Object.freeze({
    id: 0,
    method: 'initialize',
    params: {},
    protocolVersion: '',
    clientCapabilities: {},
    transport,
    signal: NEVER_ABORTED,
    notify: () => undefined,
  });
}
