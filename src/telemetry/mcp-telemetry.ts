import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { INTEGRATION_REQUEST_OBSERVER } from '../mcp.tokens.js';
import { McpPrincipalSource } from '../mrtr/mcp-principal.source.js';
import type { InputRequest } from '../protocol/wire-types.js';
import type { McpAuditEvent } from './mcp-audit-event.js';
import { McpAuditSink } from './mcp-audit.sink.js';
import type { McpRequestObserver } from './mcp-request-observer.js';
import { flowIdOf, INTERNAL_OUTCOME, type McpRequestOutcome, type McpRequestTrace } from './mcp-request-trace.js';

type Around = <T>(trace: McpRequestTrace, next: () => Promise<T>) => Promise<T>;

/**
 * Runs each MCP request under the observers (the audit sink, plus an integration's observer such
 * as OpenTelemetry's): their `around` hooks wrap the request, and once it is answered every observer
 * gets the same event. Observer failures are logged, never answered to the client.
 */
@Injectable()
export class McpTelemetry {
  private readonly logger = new Logger('McpTelemetry');
  private readonly observers: readonly McpRequestObserver[];
  private readonly around: Around;

  constructor(
    private readonly sink: McpAuditSink,
    private readonly principals: McpPrincipalSource,
    @Optional() @Inject(INTEGRATION_REQUEST_OBSERVER) integration?: McpRequestObserver,
  ) {
    this.observers = integration ? [integration] : [];
    this.around = this.observers
      .filter((o) => o.around)
      .reduceRight<Around>(
        (inner, observer) => (trace, next) => observer.around!(trace, () => inner(trace, next)),
        (_trace, next) => next(),
      );
  }

  /**
   * Answers the request with `run` under the observers; `settle` reads the outcome off the answer.
   * Resolves to what `run` resolves to.
   */
  async observe<T>(trace: McpRequestTrace, run: () => Promise<T>, settle: (value: T) => McpRequestOutcome): Promise<T> {
    const inner = async (): Promise<T> => {
      try {
        const value = await run();
        trace.outcome = settle(value);
        return value;
      } catch (error) {
        trace.outcome = INTERNAL_OUTCOME;
        throw error;
      }
    };
    try {
      return await this.around(trace, inner);
    } finally {
      this.finish(trace);
    }
  }

  /** Records a request answered synchronously (2025-era `initialize`). */
  recordSettled(trace: McpRequestTrace, outcome: McpRequestOutcome): void {
    void this.observe(
      trace,
      () => Promise.resolve(outcome),
      (settled) => settled,
    ).catch(() => undefined);
  }

  /** A 2025-era input request was pushed to the client. */
  inputRequestPushed(trace: McpRequestTrace | undefined, key: string, request: InputRequest): void {
    if (!trace) return;
    trace.pushedInputRequests++;
    for (const observer of this.observers) {
      try {
        observer.inputRequestPushed?.(trace, key, request);
      } catch (error) {
        this.failed('inputRequestPushed', error);
      }
    }
  }

  private finish(trace: McpRequestTrace): void {
    let event: McpAuditEvent;
    try {
      event = this.eventOf(trace);
    } catch (error) {
      return this.failed('event', error);
    }
    try {
      const recorded = this.sink.record(event);
      if (recorded) recorded.catch((error: unknown) => this.failed('record', error));
    } catch (error) {
      this.failed('record', error);
    }
    for (const observer of this.observers) {
      try {
        observer.finished?.(event, trace);
      } catch (error) {
        this.failed('finished', error);
      }
    }
  }

  private eventOf(trace: McpRequestTrace): McpAuditEvent {
    if (trace.principal === undefined) {
      trace.principal = trace.exchange ? this.principals.resolve(trace.exchange) : null;
    }
    const flowId = flowIdOf(trace);
    return {
      time: new Date(trace.time).toISOString(),
      durationMs: performance.now() - trace.startedAt,
      transport: trace.transport,
      era: trace.era,
      ...(trace.protocolVersion !== undefined && { protocolVersion: trace.protocolVersion }),
      method: trace.method,
      ...(trace.target !== undefined && { target: trace.target }),
      id: trace.id,
      principal: trace.principal,
      ...(flowId !== undefined && { flowId }),
      ...(trace.sessionId !== undefined && { sessionId: trace.sessionId }),
      outcome: trace.outcome ?? INTERNAL_OUTCOME,
    };
  }

  private failed(hook: string, error: unknown): void {
    this.logger.error(`An MCP request observer failed (${hook})`, error instanceof Error ? error.stack : String(error));
  }
}
