import {
  type Attributes,
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
import { McpObserver } from '../telemetry/mcp-observer.decorator.js';
import type { McpAuditEvent } from '../telemetry/mcp-audit-event.js';
import type { McpRequestObserver } from '../telemetry/mcp-request-observer.js';
import type { InputRequest } from '../protocol/wire-types.js';

const SCOPE = '@mocapi/nestjs';

/** Reads W3C trace context (`traceparent`, `tracestate`) from a request's `params._meta`. */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** Buckets of the MCP semantic conventions for `mcp.server.operation.duration` (seconds). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** Sessions last minutes to hours: the same advice up to 300 s, then up to a day. */
const SESSION_BUCKETS = [...DURATION_BUCKETS, 600, 1800, 3600, 7200, 14_400, 43_200, 86_400];

/**
 * Spans and metrics of the OpenTelemetry MCP semantic conventions, through `@opentelemetry/api`
 * only: one SERVER span per request, active while the handler runs (the handler's own spans nest
 * under it), its parent taken from `params._meta.traceparent` / `tracestate`, and the
 * `mcp.server.operation.duration` histogram; for each 2025-era session that ends on this node, the
 * `mcp.server.session.duration` histogram (`mcp.protocol.version`, `network.transport`, `error.type`
 * when it ended in error). Without a registered SDK the API's no-op tracer answers and no attribute
 * is built.
 *
 * Attributes beyond the conventions: `mcp.outcome` (`complete`, `input_required`, `tool_error`,
 * `protocol_error`, `rejected_request_state`, `rate_limited`, `cancelled`), `mcp.input_requests`
 * (questions of an `input_required` round, or 2025-era requests pushed), `mcp.request_state.reason`
 * (why a requestState was refused), `mcp.flow.id`. Each pushed 2025-era input request is a span
 * event `mcp.input_request.pushed` with `mcp.input_request.key` and `mcp.input_request.method`.
 */
@McpObserver()
export class McpOpenTelemetryObserver implements McpRequestObserver {
  private readonly tracer: Tracer;
  private readonly duration: Histogram;
  private readonly sessionDuration: Histogram;

  constructor(version?: string) {
    this.tracer = trace.getTracer(SCOPE, version);
    const meter = metrics.getMeter(SCOPE, version);
    this.duration = meter.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'Duration of the MCP request as observed by the server',
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
    const meta = request.params['_meta'];
    let parent = context.active();
    if (typeof meta === 'object' && meta !== null && 'traceparent' in meta) {
      parent = propagation.extract(parent, meta as Record<string, unknown>, META_GETTER);
    }
    const method = methodName(request);
    const name = request.target === undefined ? method : `${method} ${request.target}`;
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
    const recording = span.isRecording();
    if (recording) span.setAttributes(requestAttributes(request));
    try {
      return await context.with(trace.setSpan(parent, span), next);
    } finally {
      const outcome = request.outcome ?? { kind: 'protocol_error', code: -32603 };
      if (recording) settle(span, request, outcome);
      span.end();
      this.duration.record((performance.now() - request.startedAt) / 1000, metricAttributes(request, outcome));
    }
  }

  inputRequestPushed(_request: McpRequestObserver.Trace, key: string, input: InputRequest): void {
    const span = trace.getActiveSpan();
    if (!span?.isRecording()) return;
    span.addEvent('mcp.input_request.pushed', {
      'mcp.input_request.key': key,
      'mcp.input_request.method': input.method,
    });
  }
}

function requestAttributes(request: McpRequestObserver.Trace): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': methodName(request),
    'network.transport': networkTransport(request.transport),
  };
  if (request.id !== null) attributes['jsonrpc.request.id'] = String(request.id);
  if (request.refused?.httpStatus !== undefined) attributes['http.response.status_code'] = request.refused.httpStatus;
  if (request.target !== undefined) {
    if (request.method === 'tools/call') {
      attributes['gen_ai.tool.name'] = request.target;
      attributes['gen_ai.operation.name'] = 'execute_tool';
    } else if (request.method === 'prompts/get') {
      attributes['gen_ai.prompt.name'] = request.target;
    } else {
      attributes['mcp.resource.uri'] = request.target;
    }
  }
  if (request.sessionId !== undefined) attributes['mcp.session.id'] = request.sessionId;
  return attributes;
}

/** A request refused before its method could be read is `_OTHER` (as OpenTelemetry names unknown HTTP methods). */
function methodName(request: McpRequestObserver.Trace): string {
  return request.method === '' ? '_OTHER' : request.method;
}

function networkTransport(transport: McpRequestObserver.Trace['transport']): string {
  return transport === 'http' ? 'tcp' : 'pipe';
}

/** `error.type`: the JSON-RPC code as a string, or `tool_error`. */
function errorType(outcome: McpAuditEvent['outcome']): string | undefined {
  switch (outcome.kind) {
    case 'tool_error':
      return 'tool_error';
    case 'protocol_error':
    case 'rate_limited':
      return String(outcome.code);
    case 'rejected_request_state':
      return '-32602';
    default:
      return undefined;
  }
}

function settle(span: Span, request: McpRequestObserver.Trace, outcome: McpAuditEvent['outcome']): void {
  const attributes: Attributes = { 'mcp.outcome': outcome.kind };
  if (request.protocolVersion !== undefined) attributes['mcp.protocol.version'] = request.protocolVersion;
  if (outcome.kind === 'input_required') attributes['mcp.input_requests'] = outcome.inputRequests;
  else if (request.pushedInputRequests > 0) attributes['mcp.input_requests'] = request.pushedInputRequests;
  if (outcome.kind === 'rejected_request_state') attributes['mcp.request_state.reason'] = outcome.reason;
  const replay = request.replay;
  if (replay && (replay.isRetry || replay.sealedRound)) attributes['mcp.flow.id'] = replay.flowId;
  const error = errorType(outcome);
  if (error !== undefined) {
    attributes['error.type'] = error;
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.setAttributes(attributes);
}

function metricAttributes(request: McpRequestObserver.Trace, outcome: McpAuditEvent['outcome']): Attributes {
  const attributes: Attributes = { 'mcp.method.name': methodName(request), 'mcp.outcome': outcome.kind };
  if (request.protocolVersion !== undefined) attributes['mcp.protocol.version'] = request.protocolVersion;
  if (request.method === 'tools/call' && request.target !== undefined) attributes['gen_ai.tool.name'] = request.target;
  const error = errorType(outcome);
  if (error !== undefined) attributes['error.type'] = error;
  return attributes;
}
