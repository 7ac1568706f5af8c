import type { Attributes } from '@opentelemetry/api';
import type { McpAuditEvent } from '../telemetry/mcp-audit-event.js';
import type { McpRequestObserver } from '../telemetry/mcp-request-observer.js';

// The attributes of a request's span and of its metric points, after the MCP semantic conventions.

const URI_METHODS: ReadonlySet<string> = new Set(['resources/subscribe', 'resources/unsubscribe']);

/** How a request failed, as its span and points say it. */
export interface Failure {
  /** `error.type`: the JSON-RPC code as a string, `tool_error`, or a low-cardinality name. */
  readonly type: string;
  /** `rpc.response.status_code`: set when the response was a JSON-RPC error. */
  readonly code?: string;
  /** The span status description: the JSON-RPC error's message when there is one. */
  readonly message?: string;
}

export function requestAttributes(request: McpRequestObserver.Trace): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': methodName(request),
    ...transportAttributes(request.transport),
  };
  if (request.id !== null) attributes['jsonrpc.request.id'] = String(request.id);
  if (request.refused?.httpStatus !== undefined) attributes['http.response.status_code'] = request.refused.httpStatus;
  if (request.target !== undefined) {
    addTarget(attributes, request.method, request.target);
    if (request.method !== 'tools/call' && request.method !== 'prompts/get') {
      attributes['mcp.resource.uri'] = request.target;
    }
  } else if (URI_METHODS.has(request.method) && typeof request.params['uri'] === 'string') {
    attributes['mcp.resource.uri'] = request.params['uri'].slice(0, 512);
  }
  if (request.sessionId !== undefined) attributes['mcp.session.id'] = request.sessionId;
  return attributes;
}

/** A request refused before its method could be read is `_OTHER` (as OpenTelemetry names unknown HTTP methods). */
export function methodName(request: McpRequestObserver.Trace): string {
  return request.method === '' ? '_OTHER' : request.method;
}

export function networkTransport(transport: McpRequestObserver.Trace['transport']): string {
  return transport === 'http' ? 'tcp' : 'pipe';
}

/** `network.transport`, and `network.protocol.name` over HTTP (Streamable HTTP in the conventions' table). */
export function transportAttributes(transport: McpRequestObserver.Trace['transport']): Attributes {
  return transport === 'http'
    ? { 'network.transport': 'tcp', 'network.protocol.name': 'http' }
    : { 'network.transport': networkTransport(transport) };
}

/** The tool's or prompt's name, and the operation of a tool call. */
function addTarget(attributes: Attributes, method: string, target: string): void {
  if (method === 'tools/call') {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get') {
    attributes['gen_ai.prompt.name'] = target;
  }
}

export function metricAttributes(
  request: McpRequestObserver.Trace,
  outcome: McpAuditEvent['outcome'],
  failure: Failure | undefined,
): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': methodName(request),
    'mcp.outcome': outcome.kind,
    ...transportAttributes(request.transport),
  };
  if (request.protocolVersion !== undefined) attributes['mcp.protocol.version'] = request.protocolVersion;
  if (request.target !== undefined) addTarget(attributes, request.method, request.target);
  if (failure !== undefined) {
    attributes['error.type'] = failure.type;
    if (failure.code !== undefined) attributes['rpc.response.status_code'] = failure.code;
  }
  return attributes;
}
