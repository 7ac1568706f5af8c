import { Inject, Injectable, Logger } from '@nestjs/common';
import type { MethodResult } from '../calls/method-handler.js';
import type { McpInbound } from '../calls/mcp-inbound.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';
import { jsonBoundsProblem } from '../protocol/json-bounds.js';
import type { JsonRpcId } from '../protocol/json-rpc.js';
import { isCallAborted } from '../protocol/mcp-call-aborted.error.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpHttpChallenge } from '../protocol/mcp-http-challenge.js';
import type { McpProtocolEra } from '../protocol/protocol-era.js';
import { type DispatchOutcome, failure, type JsonRpcRequestParts, succeeded } from '../protocol/rpc-outcome.js';
import { logStack } from '../telemetry/log-stack.js';
import { logText } from '../protocol/log-text.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { type McpRequestTrace, outcomeOfResponse, startTrace } from '../telemetry/mcp-request-trace.js';

/** One request that passed its era's shape checks, with what its era already knows of it. */
export interface PipelineRequest extends JsonRpcRequestParts {
  readonly era: McpProtocolEra;
  readonly inbound: McpInbound;
  /** A 2025-era request's session: its negotiated version, id and principal. */
  readonly session?: { readonly protocolVersion: string; readonly id: string; readonly principal: string | null };
}

/**
 * What an era does with a request once the pipeline admitted it (its `inbound` carries the trace by
 * then): its result, or undefined when the request ends without a response (a 2025-era call the
 * client cancelled). Throws to fail it.
 */
export type PipelineStep<R extends PipelineRequest = PipelineRequest> = (
  request: R,
) => Promise<MethodResult | undefined>;

/**
 * The one path every request takes, whatever its era and transport: the depth and number bounds,
 * the trace and the observers around the era's step, and the mapping of every failure to its
 * JSON-RPC error. The 2026-07-28 dispatcher and the 2025-era leg each supply only their step.
 */
@Injectable()
export class McpRequestPipeline {
  private readonly logger = new Logger('McpDispatcher');

  constructor(
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly telemetry: McpTelemetry,
  ) {}

  /**
   * Answers `request` with `step`; undefined when the step ended it without a response. Observers
   * that wrap requests (OpenTelemetry) run around the answer; the audit event follows it.
   */
  async run<R extends PipelineRequest>(request: R, step: PipelineStep<R>): Promise<DispatchOutcome | undefined> {
    const { era, id, method, params, session, inbound } = request;
    const trace = startTrace(era, inbound.transport, id, method, params);
    if (session) {
      trace.protocolVersion = session.protocolVersion;
      trace.sessionId = session.id;
      trace.principal = session.principal;
    }
    inbound.trace = trace;
    try {
      return this.telemetry.wraps
        ? await this.telemetry.wrap(trace, () => this.answer(request, step, trace))
        : await this.answer(request, step, trace);
    } finally {
      this.telemetry.finish(trace);
    }
  }

  private async answer<R extends PipelineRequest>(
    request: R,
    step: PipelineStep<R>,
    trace: McpRequestTrace,
  ): Promise<DispatchOutcome | undefined> {
    const { id, method, params } = request;
    let outcome: DispatchOutcome | undefined;
    try {
      const problem = jsonBoundsProblem(params, this.limits.maxJsonDepth);
      if (problem) {
        outcome = failure(id, McpError.invalidParams(`params ${problem}`, undefined, 400));
      } else {
        try {
          const result = await step(request);
          outcome = result === undefined ? undefined : succeeded(id, result as Record<string, unknown>);
        } catch (error) {
          outcome = this.toFailure(id, method, error);
        }
      }
    } catch (error) {
      this.telemetry.escaped(trace, error);
      throw error;
    }
    trace.outcome = outcomeOfResponse(outcome?.response, outcome?.status);
    return outcome;
  }

  /**
   * Maps any failure of a call to its error response; unexpected ones are logged, never sent. A call
   * stopped by its client or by shutdown (`McpCallAbortedError`) is no failure of ours: it is
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
      error instanceof Error ? logStack(error) : logText(error),
    );
    return failure(id, McpError.internal());
  }
}
