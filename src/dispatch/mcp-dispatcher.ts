import { Inject, Injectable } from '@nestjs/common';
import { McpError } from '../protocol/mcp.error.js';
import { isJsonRpcId, type JsonRpcId } from '../protocol/json-rpc.js';
import { createExchange } from './exchange.factory.js';
import type { McpInbound } from '../calls/mcp-inbound.js';
import { MCP_METHOD_GROUPS, type McpMethodGroup, type MethodHandler } from '../calls/method-handler.js';
import { NOT_CACHED, type ResultCache, ResultStamp } from '../calls/result-stamp.js';
import { DiscoverMethods } from '../methods/discover.methods.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { type DispatchOutcome, failure, readRequest } from '../protocol/rpc-outcome.js';
import { type McpRefusal, McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { McpRequestPipeline, type PipelineRequest } from './mcp-request-pipeline.js';

interface MethodEntry {
  readonly group: McpMethodGroup;
  readonly handler: MethodHandler;
  /** Whether the method's complete results carry cache hints (the group's `cacheable`). */
  readonly cacheable: boolean;
}

/**
 * The 2026-07-28 leg and the method table both eras share: checks a message's JSON-RPC shape, then
 * hands it to the {@link McpRequestPipeline} with its step — read the `_meta` envelope (the
 * transport cross-checks its headers), find the method (unknown, removed and capability-gated
 * methods → -32601) and run it.
 */
@Injectable()
export class McpDispatcher {
  private readonly methods = new Map<string, MethodEntry>();

  constructor(
    discover: DiscoverMethods,
    @Inject(MCP_METHOD_GROUPS) groups: McpMethodGroup[],
    private readonly pipeline: McpRequestPipeline,
    private readonly telemetry: McpTelemetry,
    private readonly stamp: ResultStamp,
  ) {
    for (const group of [discover, ...groups]) {
      for (const [method, handler] of Object.entries(group.methods)) {
        this.methods.set(method, { group, handler, cacheable: group.cacheable?.includes(method) === true });
      }
    }
  }

  /** Answers one 2026-07-28 message; undefined for a notification, which gets no response. */
  async dispatch(message: unknown, inbound: McpInbound): Promise<DispatchOutcome | undefined> {
    if (Array.isArray(message)) {
      return this.refuse(inbound, failure(null, McpError.invalidRequest('Batch requests are not supported')));
    }
    if (!isJsonObject(message) || message['jsonrpc'] !== '2.0') {
      return this.refuse(inbound, failure(idOf(message), McpError.invalidRequest('Not a JSON-RPC 2.0 request')));
    }
    if (!('id' in message)) {
      // Notifications need no answer (none is defined client-to-server in 2026-07-28); observers see them.
      const method = message['method'];
      if (typeof method !== 'string') {
        return this.refuse(inbound, failure(null, McpError.invalidRequest('Not a JSON-RPC 2.0 request')));
      }
      this.telemetry.notified('modern', inbound.transport.kind, method, message['params']);
      return undefined;
    }
    const request = readRequest(message);
    if ('response' in request) {
      const method = message['method'];
      return this.refuse(inbound, request, typeof method === 'string' ? method : undefined);
    }
    const { id, method, params } = request;
    return await this.pipeline.run({ era: 'modern', id, method, params, inbound }, this.answer);
  }

  /**
   * The 2026-07-28 step: the `_meta` envelope read into the exchange, the method, and its result
   * stamped in the 2026-07-28 shape (`ResultStamp`; a retry's result is never cacheable).
   */
  private readonly answer = async (request: PipelineRequest): Promise<Record<string, unknown>> => {
    const { id, method, params, inbound } = request;
    const entry = this.entryOf(method);
    if (!entry) throw McpError.methodNotFound(method);
    const exchange = createExchange(id, method, params, inbound);
    const trace = inbound.trace!;
    trace.exchange = exchange;
    trace.protocolVersion = exchange.protocolVersion;
    const result = await entry.handler(exchange, inbound);
    return this.stamp.stamp(result, entry.cacheable ? cacheOf(entry.group, params) : undefined);
  };

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
    return this.handlerOf(method) !== undefined;
  }

  /** The handler of `method` when it is answered right now; undefined for an unknown or disabled one. */
  handlerOf(method: string): MethodHandler | undefined {
    return this.entryOf(method)?.handler;
  }

  private entryOf(method: string): MethodEntry | undefined {
    const entry = this.methods.get(method);
    return entry !== undefined && entry.group.enabled() ? entry : undefined;
  }
}

/** The cache hints of a cacheable method's result: none on a retry (it answered a question). */
function cacheOf(group: McpMethodGroup, params: Record<string, unknown>): ResultCache | true {
  if (params['requestState'] !== undefined || params['inputResponses'] !== undefined) return NOT_CACHED;
  return group.cache ?? true;
}

function idOf(message: unknown): JsonRpcId | null {
  return isJsonObject(message) && isJsonRpcId(message['id']) ? message['id'] : null;
}
