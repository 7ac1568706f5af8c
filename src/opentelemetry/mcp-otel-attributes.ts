import type { Attributes } from '@opentelemetry/api';
import type { McpAuditEvent } from '../telemetry/mcp-audit-event.js';
import type { McpRequestObserver } from '../telemetry/mcp-request-observer.js';
import {
  failureAttributes,
  MAX_TARGET_CHARS,
  type McpSpanFailure,
  targetAttributes,
  transportAttributes,
} from '../telemetry/mcp-span-conventions.js';

// The attributes of a request's span and of its metric points, after the MCP semantic conventions.

const URI_METHODS: ReadonlySet<string> = new Set(['resources/subscribe', 'resources/unsubscribe']);

export function requestAttributes(request: McpRequestObserver.Trace): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': methodName(request),
    ...transportAttributes(request.transport),
  };
  if (request.id !== null) attributes['jsonrpc.request.id'] = String(request.id);
  if (request.refused?.httpStatus !== undefined) attributes['http.response.status_code'] = request.refused.httpStatus;
  if (request.target !== undefined) {
    Object.assign(attributes, targetAttributes(request.method, request.target));
    if (request.method !== 'tools/call' && request.method !== 'prompts/get') {
      attributes['mcp.resource.uri'] = request.target;
    }
  } else if (URI_METHODS.has(request.method) && typeof request.params['uri'] === 'string') {
    attributes['mcp.resource.uri'] = request.params['uri'].slice(0, MAX_TARGET_CHARS);
  }
  if (request.sessionId !== undefined) attributes['mcp.session.id'] = request.sessionId;
  return attributes;
}

/** A request refused before its method could be read is `_OTHER` (as OpenTelemetry names unknown HTTP methods). */
export function methodName(request: McpRequestObserver.Trace): string {
  return request.method === '' ? '_OTHER' : request.method;
}

export function metricAttributes(
  request: McpRequestObserver.Trace,
  outcome: McpAuditEvent['outcome'],
  failure: McpSpanFailure | undefined,
): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': methodName(request),
    'mcp.outcome': outcome.kind,
    ...transportAttributes(request.transport),
  };
  if (request.protocolVersion !== undefined) attributes['mcp.protocol.version'] = request.protocolVersion;
  if (request.target !== undefined) Object.assign(attributes, targetAttributes(request.method, request.target));
  if (failure !== undefined) Object.assign(attributes, failureAttributes(failure));
  return attributes;
}
