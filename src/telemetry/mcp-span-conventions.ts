import type { McpTransportInfo } from '../protocol/mcp-exchange.js';

// What the OpenTelemetry MCP semantic conventions ask of a span's and a point's attributes, without
// `@opentelemetry/api`: shared by the SERVER spans of `@mocapi/nestjs/opentelemetry` and the CLIENT
// spans the gateway sends upstream.

/** Attribute values as the module records them (a subset of OpenTelemetry's `Attributes`). */
export type SpanAttributes = Record<string, string | number>;

/** The instrumentation scope (tracer and meter name) of every span and point the module records. */
export const INSTRUMENTATION_SCOPE = '@mocapi/nestjs';

/** The longest tool or prompt name, or resource URI, recorded (a URI is unbounded). */
export const MAX_TARGET_CHARS = 512;

/** How an operation failed, as its span and points say it. */
export interface McpSpanFailure {
  /** `error.type`: the JSON-RPC code as a string, `tool_error`, or a low-cardinality name. */
  readonly type: string;
  /** `rpc.response.status_code`: set when the response was a JSON-RPC error. */
  readonly code?: string;
  /** The span status description: the JSON-RPC error's message when there is one. */
  readonly message?: string;
}

/** `error.type`, and `rpc.response.status_code` when the failure was a JSON-RPC error. */
export function failureAttributes(failure: McpSpanFailure): SpanAttributes {
  return failure.code === undefined
    ? { 'error.type': failure.type }
    : { 'error.type': failure.type, 'rpc.response.status_code': failure.code };
}

/** The tool's or prompt's name (`gen_ai.tool.name` with the operation, `gen_ai.prompt.name`); nothing for other methods. */
export function targetAttributes(method: string, target: string): SpanAttributes {
  if (method === 'tools/call') return { 'gen_ai.tool.name': target, 'gen_ai.operation.name': 'execute_tool' };
  if (method === 'prompts/get') return { 'gen_ai.prompt.name': target };
  return {};
}

export function networkTransport(transport: McpTransportInfo['kind']): string {
  return transport === 'http' ? 'tcp' : 'pipe';
}

/** `network.transport`, and `network.protocol.name` over HTTP (Streamable HTTP in the conventions' table). */
export function transportAttributes(transport: McpTransportInfo['kind']): SpanAttributes {
  return transport === 'http'
    ? { 'network.transport': 'tcp', 'network.protocol.name': 'http' }
    : { 'network.transport': networkTransport(transport) };
}
