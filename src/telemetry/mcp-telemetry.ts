import { Inject, Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { performance } from 'node:perf_hooks';
import { INTEGRATION_REQUEST_OBSERVER } from '../core/mcp.tokens.js';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import type { JsonRpcResponse } from '../protocol/json-rpc.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { InputRequest } from '../protocol/wire-types.js';
import type { McpAuditEvent } from './mcp-audit-event.js';
import { clientNotification } from './client-notification.js';
import { LoggerAuditSink, McpAuditSink } from './mcp-audit-sink.js';
import { logStack } from './log-stack.js';
import { logText } from '../protocol/log-text.js';
import { MCP_OBSERVER_METADATA } from './mcp-observer.decorator.js';
import type { McpRequestObserver } from './mcp-request-observer.js';
import {
  flowIdOf,
  INTERNAL_OUTCOME,
  type McpRequestOutcome,
  type McpRequestTrace,
  outcomeOfResponse,
  startTrace,
} from './mcp-request-trace.js';

/** Marks an error that escaped an observed request (it was recorded there as an internal error). */
const OBSERVED = Symbol('mcp.observed');
const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** What is known of a request refused before dispatch. */
export interface McpRefusal {
  readonly transport: McpTransportInfo;
  readonly era: McpRequestTrace['era'];
  /** The error response that was sent. */
  readonly response: JsonRpcResponse;
  /** The request's method, when its body could be read. */
  readonly method?: string;
  /** The HTTP status it travelled with. */
  readonly httpStatus?: number;
  readonly sessionId?: string;
}

type Around = <T>(trace: McpRequestTrace, next: () => Promise<T>) => Promise<T>;
type AroundPush = <T>(trace: McpRequestTrace, push: McpRequestObserver.Push, send: () => Promise<T>) => Promise<T>;

const DIRECT: Around = (_trace, next) => next();
const SEND: AroundPush = (_trace, _push, send) => send();

/**
 * Runs each MCP request under the observers (the audit sink, plus every `@McpObserver()` provider
 * and the `INTEGRATION_REQUEST_OBSERVER` slot, such as OpenTelemetry's): their `around` hooks wrap
 * the request, the first outermost, and once it is answered every observer gets the same event.
 * Observer failures are logged, never answered to the client. With no observer, a request runs
 * directly.
 */
@Injectable()
export class McpTelemetry implements OnModuleInit {
  private readonly logger = new Logger('McpTelemetry');
  private observers: readonly McpRequestObserver[] = [];
  private around: Around = DIRECT;
  private aroundPush: AroundPush = SEND;
  /** The observers with a `notified` hook: with none, a notification costs one length check. */
  private notifiedBy: readonly McpRequestObserver[] = [];

  constructor(
    private readonly sink: McpAuditSink,
    private readonly principals: McpPrincipalSource,
    @Optional() @Inject(INTEGRATION_REQUEST_OBSERVER) private readonly integration?: McpRequestObserver,
    @Optional() private readonly discovery?: DiscoveryService,
  ) {
    this.use(integration ? [integration] : []);
  }

  /** Every provider is instantiated by now: the slot's observer first, then the marked providers. */
  onModuleInit(): void {
    const observers = new Set<McpRequestObserver>(this.integration ? [this.integration] : []);
    for (const wrapper of this.discovery?.getProviders() ?? []) {
      const instance: unknown = wrapper.instance;
      if (!wrapper.isDependencyTreeStatic() || typeof instance !== 'object' || instance === null) continue;
      if (Reflect.getMetadata(MCP_OBSERVER_METADATA, instance.constructor) === true) {
        observers.add(instance as McpRequestObserver);
      }
    }
    this.use([...observers]);
  }

  private use(observers: readonly McpRequestObserver[]): void {
    this.observers = observers;
    this.around = observers
      .filter((o) => o.around)
      .reduceRight<Around>(
        (inner, observer) => (trace, next) => observer.around!(trace, () => inner(trace, next)),
        DIRECT,
      );
    this.aroundPush = observers
      .filter((o) => o.aroundPush)
      .reduceRight<AroundPush>(
        (inner, observer) => (trace, push, send) => observer.aroundPush!(trace, push, () => inner(trace, push, send)),
        SEND,
      );
    this.notifiedBy = observers.filter((o) => o.notified);
  }

  /** Answers the request with `run` under the observers; `settle` reads the outcome off the answer. */
  async observe<T>(trace: McpRequestTrace, run: () => Promise<T>, settle: (value: T) => McpRequestOutcome): Promise<T> {
    const inner = async (): Promise<T> => {
      try {
        const value = await run();
        trace.outcome = settle(value);
        return value;
      } catch (error) {
        this.escaped(trace, error);
        throw error;
      }
    };
    try {
      return await this.around(trace, inner);
    } finally {
      this.finish(trace);
    }
  }

  /**
   * Whether an observer wraps each request (an `around` hook, as OpenTelemetry's span): the request
   * pipeline then answers inside {@link wrap}; without one it answers directly, with no closure.
   */
  get wraps(): boolean {
    return this.around !== DIRECT;
  }

  /** Runs `next` inside the observers' `around` hooks, the first outermost. */
  wrap<T>(trace: McpRequestTrace, next: () => Promise<T>): Promise<T> {
    return this.around(trace, next);
  }

  /** The request ended with `error` escaping: recorded as an internal error, and marked as recorded. */
  escaped(trace: McpRequestTrace, error: unknown): void {
    trace.outcome = INTERNAL_OUTCOME;
    if (typeof error === 'object' && error !== null) (error as Record<symbol, unknown>)[OBSERVED] = true;
  }

  /**
   * Records a request refused before dispatch (the transport's checks, an unreadable message, a
   * refused session): one audit event with no principal, and the observers' span and metric point.
   * Refusal paths only: a request that reaches dispatch is observed there.
   */
  refused(refusal: McpRefusal): void {
    const { response, httpStatus } = refusal;
    const trace = startTrace(refusal.era, refusal.transport, response.id, refusal.method ?? '', NO_PARAMS);
    trace.principal = null;
    if (refusal.sessionId !== undefined) trace.sessionId = refusal.sessionId;
    trace.refused = { ...(httpStatus !== undefined && { httpStatus }) };
    this.recordSettled(trace, outcomeOfResponse(response, httpStatus));
  }

  /** Whether `error` escaped a request that was observed (and so is recorded already). */
  static wasObserved(error: unknown): boolean {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[OBSERVED] === true;
  }

  /** Records a request whose outcome is known already (a refusal). */
  private recordSettled(trace: McpRequestTrace, outcome: McpRequestOutcome): void {
    void this.observe(
      trace,
      async () => outcome,
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

  /**
   * Whether an observer wraps pushed requests (`aroundPush`, as OpenTelemetry's CLIENT span): the
   * push shim then sends each through {@link push}; without one it sends directly.
   */
  get wrapsPushes(): boolean {
    return this.aroundPush !== SEND;
  }

  /** Sends a 2025-era pushed request with `send` inside the observers' `aroundPush` hooks, the first outermost. */
  push<T>(trace: McpRequestTrace, push: McpRequestObserver.Push, send: () => Promise<T>): Promise<T> {
    return this.aroundPush(trace, push, send);
  }

  /**
   * A client notification was handled (`session`: its 2025-era session). Nothing is built when no
   * observer has a `notified` hook.
   */
  notified(
    era: McpRequestTrace['era'],
    transport: McpTransportInfo['kind'],
    method: string,
    params: unknown,
    session?: { readonly protocolVersion: string; readonly id: string },
  ): void {
    if (this.notifiedBy.length === 0) return;
    const notification = clientNotification(era, transport, method, params, session);
    for (const observer of this.notifiedBy) {
      try {
        observer.notified!(notification);
      } catch (error) {
        this.failed('notified', error);
      }
    }
  }

  /** A 2025-era session ended on this node. */
  sessionEnded(session: McpRequestObserver.SessionEnd): void {
    for (const observer of this.observers) {
      try {
        observer.sessionEnded?.(session);
      } catch (error) {
        this.failed('sessionEnded', error);
      }
    }
  }

  /** The request is answered: one audit event, and every observer's `finished`. */
  finish(trace: McpRequestTrace): void {
    if (this.unread()) return;
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

  /**
   * Nobody would read the event: no observer, and the default sink with debug logging off (where
   * it returns at once). The event (a date string, a principal lookup) is then not built at all.
   */
  private unread(): boolean {
    return this.observers.length === 0 && this.sink.constructor === LoggerAuditSink && !Logger.isLevelEnabled('debug');
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
      ...(trace.refused !== undefined && { refused: trace.refused }),
    };
  }

  private failed(hook: string, error: unknown): void {
    this.logger.error(
      `An MCP request observer failed (${hook})`,
      error instanceof Error ? logStack(error) : logText(error),
    );
  }
}
