import type { Client } from '@modelcontextprotocol/client';
import { McpError } from '../protocol/mcp.error.js';
import {
  failureAttributes,
  INSTRUMENTATION_SCOPE,
  MAX_TARGET_CHARS,
  type McpSpanFailure,
  type SpanAttributes,
  targetAttributes,
  transportAttributes,
} from '../telemetry/mcp-span-conventions.js';
import { McpUpstreamError } from './mcp-upstream.error.js';
import { McpUpstreamUnavailableException } from './mcp-upstream-unavailable.exception.js';
import { type TraceApi, traceApi } from './trace-context.js';

type Params = Record<string, unknown>;

/**
 * Sends one upstream request (`send`, given the request's params) inside its CLIENT span, after the
 * OpenTelemetry MCP semantic conventions: named `{mcp.method.name} {target}` (the upstream's tool
 * or prompt name; a resource read is `resources/read`), a child of the active span (the downstream
 * call's SERVER span, with `McpOpenTelemetryModule`; without it, of the caller's `traceparent`),
 * active while the request runs, its W3C trace context sent in the request's
 * `params._meta` in place of the one `params` carries (so the upstream's SERVER span is its child).
 * It records `mcp.method.name`, `gen_ai.tool.name` / `gen_ai.prompt.name` / `mcp.resource.uri`,
 * `mcp.protocol.version`, `mcp.session.id` (2025-era session), `server.address` / `server.port` of
 * an HTTP upstream, and on failure the error status and `error.type`: the {@link McpUpstreamError}
 * reason, `unavailable` ({@link McpUpstreamUnavailableException}), the upstream's JSON-RPC error
 * code, or `tool_error` for a tool result with `isError`.
 *
 * Without `@opentelemetry/api` nothing changes; without a registered tracer provider the API's no-op
 * tracer answers and no attribute is built.
 */
export async function inUpstreamSpan<T extends Params>(
  client: Client,
  url: URL | undefined,
  method: string,
  params: Params,
  send: (params: Params) => Promise<T>,
): Promise<T> {
  const api = traceApi();
  if (!api) return send(params);
  const parent = parentOf(api, params);
  const span = api.trace
    .getTracer(INSTRUMENTATION_SCOPE)
    .startSpan(spanName(method, params), { kind: api.SpanKind.CLIENT }, parent);
  const context = api.trace.setSpan(parent, span);
  let failure: McpSpanFailure | undefined;
  try {
    const result = await api.context.with(context, () => send(withTraceContext(api, context, params)));
    if (method === 'tools/call' && result['isError'] === true) failure = { type: 'tool_error' };
    return result;
  } catch (error) {
    failure = failureOf(error);
    throw error;
  } finally {
    if (span.isRecording()) {
      const attributes = requestAttributes(client, url, method, params);
      if (failure !== undefined) {
        Object.assign(attributes, failureAttributes(failure));
        span.setStatus({
          code: api.SpanStatusCode.ERROR,
          ...(failure.message !== undefined && { message: failure.message }),
        });
      }
      span.setAttributes(attributes);
    }
    span.end();
  }
}

/** The active context when a span is active (our SERVER span), else the caller's trace context `params._meta` carries. */
function parentOf(api: TraceApi, params: Params): unknown {
  const active = api.context.active();
  if (api.trace.getSpan(active) !== undefined) return active;
  return api.propagation.extract(active, (params['_meta'] ?? {}) as Params);
}

/** `{mcp.method.name} {target}`: the tool's or prompt's name; never a resource URI (unbounded). */
function spanName(method: string, params: Params): string {
  const name = params['name'];
  return (method === 'tools/call' || method === 'prompts/get') && typeof name === 'string'
    ? `${method} ${name}`
    : method;
}

/** `params` with the span's `traceparent` / `tracestate` in `_meta`, in place of those it carried. */
function withTraceContext(api: TraceApi, context: unknown, params: Params): Params {
  const carrier: Record<string, unknown> = {};
  api.propagation.inject(context, carrier);
  if (typeof carrier['traceparent'] !== 'string') return params;
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries((params['_meta'] ?? {}) as Params)) {
    if (key !== 'traceparent' && key !== 'tracestate') meta[key] = value;
  }
  return { ...params, _meta: { ...meta, ...carrier } };
}

function requestAttributes(client: Client, url: URL | undefined, method: string, params: Params): SpanAttributes {
  const attributes: SpanAttributes = { 'mcp.method.name': method };
  const name = params['name'];
  if (typeof name === 'string') Object.assign(attributes, targetAttributes(method, name));
  if (method === 'resources/read' && typeof params['uri'] === 'string') {
    attributes['mcp.resource.uri'] = params['uri'].slice(0, MAX_TARGET_CHARS);
  }
  const version = client.getNegotiatedProtocolVersion();
  if (version !== undefined) attributes['mcp.protocol.version'] = version;
  const sessionId = (client.transport as { sessionId?: unknown } | undefined)?.sessionId;
  if (typeof sessionId === 'string') attributes['mcp.session.id'] = sessionId;
  if (url) Object.assign(attributes, serverAttributes(url));
  return attributes;
}

/** `server.address` / `server.port` of an HTTP upstream, and its network transport. */
function serverAttributes(url: URL): SpanAttributes {
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return {
    'server.address': url.hostname.replace(/^\[(.*)\]$/, '$1'),
    'server.port': port,
    ...transportAttributes('http'),
  };
}

/** `error.type` of a failed upstream request: our reason for it, or the upstream's JSON-RPC error code. */
function failureOf(error: unknown): McpSpanFailure {
  if (error instanceof McpUpstreamError) return { type: error.reason, message: error.message };
  if (error instanceof McpUpstreamUnavailableException) return { type: 'unavailable', message: error.message };
  if (error instanceof McpError) {
    const code = String(error.code);
    return { type: code, code, message: error.message };
  }
  return { type: '_OTHER' };
}
