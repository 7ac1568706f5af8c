import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { performance } from 'node:perf_hooks';
import { isCallAborted } from '../protocol/mcp-call-aborted.error.js';
import { INVALID_REQUEST_STATE_MESSAGE } from '../mrtr/exceptions/invalid-request-state.exception.js';
import { LegacyInputError } from '../legacy/legacy-input.error.js';
import { McpObserver } from '../telemetry/mcp-observer.decorator.js';
import type { McpAuditEvent } from '../telemetry/mcp-audit-event.js';
import type { McpRequestObserver } from '../telemetry/mcp-request-observer.js';
import {
  failureAttributes,
  INSTRUMENTATION_SCOPE,
  type McpSpanFailure,
  networkTransport,
  transportAttributes,
} from '../telemetry/mcp-span-conventions.js';
import { metricAttributes, methodName, requestAttributes } from './mcp-otel-attributes.js';

/** Reads W3C trace context (`traceparent`, `tracestate`) from a request's `params._meta`. */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** Buckets of the MCP semantic conventions for the operation durations (seconds). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** Sessions last minutes to hours: the same advice up to 300 s, then up to a day. */
const SESSION_BUCKETS = [...DURATION_BUCKETS, 600, 1800, 3600, 7200, 14_400, 43_200, 86_400];

/**
 * Spans and metrics of the OpenTelemetry MCP semantic conventions, through `@opentelemetry/api`
 * only: one SERVER span per request (named `{mcp.method.name} {target}`, the target being the tool
 * or prompt name; never a resource URI), active while the handler runs (the handler's own spans
 * nest under it), its parent taken from `params._meta.traceparent` / `tracestate`, and the
 * `mcp.server.operation.duration` histogram; one SERVER span and duration point per client
 * notification; one CLIENT span per input request pushed to a 2025-era client (child of the call's
 * span, its context sent in the request's `params._meta`, ended by the answer or the failure), with
 * the `mcp.client.operation.duration` histogram; for each 2025-era session that ends on this node,
 * the `mcp.server.session.duration` histogram (`mcp.protocol.version`, `network.transport`,
 * `error.type` when it ended in error). Without a registered SDK the API's no-op tracer answers and
 * no attribute is built.
 *
 * Attributes beyond the conventions: `mcp.outcome` (`complete`, `input_required`, `tool_error`,
 * `protocol_error`, `rejected_request_state`, `rate_limited`, `cancelled`), `mcp.input_requests`
 * (questions of an `input_required` round, or 2025-era requests pushed), `mcp.request_state.reason`
 * (why a requestState was refused), `mcp.flow.id`; on a pushed request's span,
 * `mcp.input_request.key`.
 */
@McpObserver()
export class McpOpenTelemetryObserver implements McpRequestObserver {
  private readonly tracer: Tracer;
  private readonly duration: Histogram;
  private readonly clientDuration: Histogram;
  private readonly sessionDuration: Histogram;

  constructor(version?: string) {
    this.tracer = trace.getTracer(INSTRUMENTATION_SCOPE, version);
    const meter = metrics.getMeter(INSTRUMENTATION_SCOPE, version);
    this.duration = meter.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'MCP request or notification duration as observed on the receiver',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.clientDuration = meter.createHistogram('mcp.client.operation.duration', {
      unit: 's',
      description: 'Duration of a request the server sent to the client, until its answer',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.sessionDuration = meter.createHistogram('mcp.server.session.duration', {
      unit: 's',
      description: 'Duration of the MCP session as observed by the server',
      advice: { explicitBucketBoundaries: SESSION_BUCKETS },
    });
  }

  sessionEnded(session: McpRequestObserver.SessionEnd): void {
    const attributes: Attributes = {
      'mcp.protocol.version': session.protocolVersion,
      'network.transport': networkTransport(session.transport),
    };
    if (session.errorType !== undefined) attributes['error.type'] = session.errorType;
    this.sessionDuration.record(session.durationMs / 1000, attributes);
  }

  async around<T>(request: McpRequestObserver.Trace, next: () => Promise<T>): Promise<T> {
    const parent = parentOf(request.params);
    const method = methodName(request);
    const name =
      request.target === undefined || request.method === 'resources/read' ? method : `${method} ${request.target}`;
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
    const recording = span.isRecording();
    if (recording) span.setAttributes(requestAttributes(request));
    try {
      return await context.with(trace.setSpan(parent, span), next);
    } finally {
      const outcome = request.outcome ?? { kind: 'protocol_error', code: -32603 };
      const failure = failureOf(outcome);
      if (recording) settle(span, request, outcome, failure);
      span.end();
      this.duration.record((performance.now() - request.startedAt) / 1000, metricAttributes(request, outcome, failure));
    }
  }

  async aroundPush<T>(
    request: McpRequestObserver.Trace,
    push: McpRequestObserver.Push,
    send: () => Promise<T>,
  ): Promise<T> {
    // The call's SERVER span is active here: the pushed request's CLIENT span is its child.
    const parent = context.active();
    const span = this.tracer.startSpan(push.method, { kind: SpanKind.CLIENT }, parent);
    const startedAt = performance.now();
    const attributes: Attributes = { 'mcp.method.name': push.method, ...transportAttributes(request.transport) };
    if (request.protocolVersion !== undefined) attributes['mcp.protocol.version'] = request.protocolVersion;
    propagation.inject(trace.setSpan(parent, span), push.meta);
    let failure: McpSpanFailure | undefined;
    try {
      return await send();
    } catch (error) {
      failure = pushFailureOf(error);
      throw error;
    } finally {
      if (failure !== undefined) Object.assign(attributes, failureAttributes(failure));
      if (span.isRecording()) {
        span.setAttributes(attributes);
        span.setAttributes({ 'jsonrpc.request.id': push.id, 'mcp.input_request.key': push.key });
        if (request.sessionId !== undefined) span.setAttribute('mcp.session.id', request.sessionId);
        if (failure !== undefined) setError(span, failure);
      }
      span.end();
      this.clientDuration.record((performance.now() - startedAt) / 1000, attributes);
    }
  }

  notified(notification: McpRequestObserver.Notification): void {
    const parent = parentOf(notification.params);
    const attributes: Attributes = {
      'mcp.method.name': notification.method,
      ...transportAttributes(notification.transport),
    };
    if (notification.protocolVersion !== undefined) attributes['mcp.protocol.version'] = notification.protocolVersion;
    const span = this.tracer.startSpan(notification.method, { kind: SpanKind.SERVER }, parent);
    if (span.isRecording()) {
      span.setAttributes(attributes);
      if (notification.sessionId !== undefined) span.setAttribute('mcp.session.id', notification.sessionId);
    }
    span.end();
    this.duration.record((performance.now() - notification.startedAt) / 1000, attributes);
  }
}

/**
 * The parent of a server span: the context in `params._meta` (W3C `traceparent` / `tracestate`)
 * when the client sent one, else the ambient context.
 */
function parentOf(params: Readonly<Record<string, unknown>>): Context {
  const meta = params['_meta'];
  const active = context.active();
  if (typeof meta !== 'object' || meta === null || !('traceparent' in meta)) return active;
  return propagation.extract(active, meta as Record<string, unknown>, META_GETTER);
}

/** How a request failed: a JSON-RPC error (its code and message), or a tool error; undefined when it did not. */
function failureOf(outcome: McpAuditEvent['outcome']): McpSpanFailure | undefined {
  switch (outcome.kind) {
    case 'tool_error':
      return { type: 'tool_error' };
    case 'protocol_error':
    case 'rate_limited': {
      const code = String(outcome.code);
      return { type: code, code, ...(outcome.message !== undefined && { message: outcome.message }) };
    }
    case 'rejected_request_state':
      return { type: '-32602', code: '-32602', message: INVALID_REQUEST_STATE_MESSAGE };
    default:
      return undefined;
  }
}

/**
 * How a pushed request failed: the client's JSON-RPC error (its code and message), the round's
 * `timeout`, the call's end (`McpCallAbortedError.reason`: `cancelled`, `disconnected`, ...).
 */
function pushFailureOf(error: unknown): McpSpanFailure {
  if (error instanceof LegacyInputError) {
    const { answer } = error;
    if (answer === undefined) return { type: error.failure, message: error.message };
    const code = String(answer.code);
    return { type: code, code, ...(answer.message !== undefined && { message: answer.message.slice(0, 1024) }) };
  }
  if (isCallAborted(error)) return { type: error.reason, message: error.message };
  return { type: '_OTHER' };
}

function setError(span: Span, failure: McpSpanFailure): void {
  span.setStatus({
    code: SpanStatusCode.ERROR,
    ...(failure.message !== undefined && { message: failure.message }),
  });
}

function settle(
  span: Span,
  request: McpRequestObserver.Trace,
  outcome: McpAuditEvent['outcome'],
  failure: McpSpanFailure | undefined,
): void {
  const attributes: Attributes = { 'mcp.outcome': outcome.kind };
  if (request.protocolVersion !== undefined) attributes['mcp.protocol.version'] = request.protocolVersion;
  // `initialize` learns its session id while it runs.
  if (request.sessionId !== undefined) attributes['mcp.session.id'] = request.sessionId;
  if (outcome.kind === 'input_required') attributes['mcp.input_requests'] = outcome.inputRequests;
  else if (request.pushedInputRequests > 0) attributes['mcp.input_requests'] = request.pushedInputRequests;
  if (outcome.kind === 'rejected_request_state') attributes['mcp.request_state.reason'] = outcome.reason;
  const replay = request.replay;
  if (replay && (replay.isRetry || replay.sealedRound)) attributes['mcp.flow.id'] = replay.flowId;
  if (failure !== undefined) {
    Object.assign(attributes, failureAttributes(failure));
    setError(span, failure);
  }
  span.setAttributes(attributes);
}
