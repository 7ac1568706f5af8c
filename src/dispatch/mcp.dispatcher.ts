import { Inject, Injectable, Logger } from '@nestjs/common';
import { McpError } from '../protocol/mcp.error.js';
import { isCallAborted } from '../protocol/mcp-call-aborted.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpHttpChallenge } from '../protocol/mcp-http-challenge.js';
import { isJsonRpcId, type JsonRpcErrorObject, type JsonRpcId, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { createExchange } from './exchange.factory.js';
import { TracedInbound } from './traced-inbound.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { McpInbound } from '../calls/mcp-inbound.js';
import { MCP_METHOD_GROUPS, type McpMethodGroup, type MethodHandler } from '../calls/method-handler.js';
import { DiscoverMethods } from '../methods/discover.methods.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { jsonBoundsProblem } from '../protocol/json-bounds.js';
import { isPromiseLike, type MaybePromise } from '../protocol/maybe-promise.js';
import { type McpRefusal, McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { type McpRequestTrace, outcomeOfResponse, startTrace } from '../telemetry/mcp-request-trace.js';
import { logText } from '../telemetry/log-text.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

/** A response and the HTTP status (and extra headers) it travels with (stdio ignores both). */
export interface DispatchOutcome {
  readonly status: number;
  readonly response: JsonRpcResponse;
  readonly headers?: Readonly<Record<string, string>>;
}

interface MethodEntry {
  readonly group: McpMethodGroup;
  readonly handler: MethodHandler;
}

/**
 * Answers one JSON-RPC message, whatever the transport: validates its shape, finds the method
 * (unknown, removed and capability-gated methods → -32601), reads the `_meta` envelope, lets the
 * transport cross-check its headers, and maps every failure to a JSON-RPC error in one place.
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpDispatcher');
  private readonly methods = new Map<string, MethodEntry>();

  constructor(
    discover: DiscoverMethods,
    @Inject(MCP_METHOD_GROUPS) groups: McpMethodGroup[],
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
    private readonly telemetry: McpTelemetry,
  ) {
    for (const group of [discover, ...groups]) {
      for (const [method, handler] of Object.entries(group.methods)) this.methods.set(method, { group, handler });
    }
  }

  /**
   * Undefined for a notification, which gets no response. The outcome comes back without a promise
   * when the whole call was synchronous (a synchronous handler and no observer that wraps requests).
   */
  dispatch(message: unknown, inbound: McpInbound): MaybePromise<DispatchOutcome | undefined> {
    if (Array.isArray(message)) {
      return this.refuse(inbound, failure(null, McpError.invalidRequest('Batch requests are not supported')));
    }
    if (!isJsonObject(message) || message['jsonrpc'] !== '2.0') {
      return this.refuse(inbound, failure(idOf(message), McpError.invalidRequest('Not a JSON-RPC 2.0 request')));
    }
    if (!('id' in message)) {
      // Notifications need no answer; none is defined client-to-server in 2026-07-28.
      return typeof message['method'] === 'string'
        ? undefined
        : this.refuse(inbound, failure(null, McpError.invalidRequest('Not a JSON-RPC 2.0 request')));
    }
    const request = readRequest(message);
    if ('response' in request) {
      const method = message['method'];
      return this.refuse(inbound, request, typeof method === 'string' ? method : undefined);
    }
    const { id, method, params } = request;
    const trace = startTrace('modern', inbound.transport, id, method, params);
    // The trace rides on the inbound (see McpRequestTrace); the transport's lazy signal stays lazy.
    const traced = new TracedInbound(inbound, trace);
    return this.telemetry.observe(
      trace,
      () => this.answer(id, method, params, traced, trace),
      (outcome) => outcomeOfResponse(outcome.response, outcome.status),
    );
  }

  private answer(
    id: JsonRpcId,
    method: string,
    params: Record<string, unknown>,
    inbound: McpInbound,
    trace: McpRequestTrace,
  ): MaybePromise<DispatchOutcome> {
    const problem = jsonBoundsProblem(params, this.options.maxJsonDepth);
    if (problem) return failure(id, McpError.invalidParams(`params ${problem}`, undefined, 400));
    let result: MaybePromise<Record<string, unknown>>;
    try {
      const exchange = this.hasMethod(method) ? createExchange(id, method, params, inbound) : undefined;
      if (!exchange) throw McpError.methodNotFound(method);
      trace.exchange = exchange;
      trace.protocolVersion = exchange.protocolVersion;
      result = this.call(exchange, inbound);
    } catch (error) {
      return this.toFailure(id, method, error);
    }
    if (!isPromiseLike(result)) return succeeded(id, result);
    return Promise.resolve(result).then(
      (settled) => succeeded(id, settled),
      (error: unknown) => this.toFailure(id, method, error),
    );
  }

  /**
   * Records a message refused before it was dispatched (one audit event, one span): the
   * transports' own refusals come here, as do this dispatcher's refusals of malformed messages.
   */
  refused(refusal: McpRefusal): void {
    this.telemetry.refused(refusal);
  }

  private refuse(inbound: McpInbound, outcome: DispatchOutcome, method?: string): DispatchOutcome {
    const { transport } = inbound;
    this.telemetry.refused({
      transport,
      era: 'modern',
      response: outcome.response,
      ...(transport.kind === 'http' && { httpStatus: outcome.status }),
      ...(method !== undefined && { method }),
    });
    return outcome;
  }

  /** Whether `method` is answered right now (known, and its capability advertised). */
  hasMethod(method: string): boolean {
    const entry = this.methods.get(method);
    return entry !== undefined && entry.group.enabled();
  }

  /**
   * Runs the method of an exchange that is already established (the 2025-era leg builds its own from
   * the session); resolves to the result or throws McpError.
   */
  call(exchange: McpExchange, inbound: McpInbound): MaybePromise<Record<string, unknown>> {
    const entry = this.methods.get(exchange.method);
    if (!entry || !entry.group.enabled()) throw McpError.methodNotFound(exchange.method);
    return entry.handler(exchange, inbound);
  }

  /**
   * Maps any failure of a call to its error response; unexpected ones are logged, never sent. A call
   * stopped by its client or by shutdown ({@link McpCallAbortedError}) is no failure of ours: it is
   * answered (if anyone still listens) without an ERROR line.
   */
  toFailure(id: JsonRpcId, method: string, error: unknown): DispatchOutcome {
    if (error instanceof McpError) return failure(id, error);
    if (error instanceof McpHttpChallenge) throw error;
    if (isCallAborted(error)) {
      this.logger.debug(`${logText(method)} stopped: ${error.message}`);
      return failure(id, McpError.aborted(error));
    }
    this.logger.error(
      `Unexpected failure answering ${logText(method)}`,
      error instanceof Error ? error.stack : logText(error),
    );
    return failure(id, McpError.internal());
  }
}

function idOf(message: unknown): JsonRpcId | null {
  return isJsonObject(message) && isJsonRpcId(message['id']) ? message['id'] : null;
}

/** The parts of a JSON-RPC request every era checks the same way. */
export interface JsonRpcRequestParts {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** The id, method and params of a message that has an id, or the failure that refuses it (-32600). */
export function readRequest(message: Record<string, unknown>): JsonRpcRequestParts | DispatchOutcome {
  const { id, method } = message;
  const params = message['params'] ?? {};
  if (!isJsonRpcId(id)) return failure(null, McpError.invalidRequest('The request id must be a string or a number'));
  if (typeof method !== 'string') return failure(id, McpError.invalidRequest('The request has no method'));
  if (!isJsonObject(params)) return failure(id, McpError.invalidRequest('params must be an object'));
  return { id, method, params };
}

/** Builds the error response; only McpError's own code, message and data ever reach the wire. */
function succeeded(id: JsonRpcId, result: Record<string, unknown>): DispatchOutcome {
  return { status: 200, response: { jsonrpc: '2.0', id, result } };
}

export function failure(id: JsonRpcId | null, error: McpError): DispatchOutcome {
  const body: JsonRpcErrorObject = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  const outcome = { status: error.httpStatus, response: { jsonrpc: '2.0', id, error: body } } as const;
  return error.httpHeaders ? { ...outcome, headers: error.httpHeaders } : outcome;
}

/** -32700 for a body that is not JSON. */
export function parseErrorOutcome(): DispatchOutcome {
  return failure(
    null,
    new McpError(McpErrorCode.ParseError, 'Parse error: the body is not valid JSON', undefined, 400),
  );
}
