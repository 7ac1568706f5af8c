import type { McpExchange } from '../protocol/mcp-exchange.js';

/** What the gateway uses of `@opentelemetry/api`, when the application has it. */
export interface TraceApi {
  context: { active(): unknown; with<T>(context: unknown, run: () => T): T };
  propagation: {
    inject(context: unknown, carrier: Record<string, unknown>): void;
    extract(context: unknown, carrier: Record<string, unknown>): unknown;
  };
  trace: {
    getTracer(name: string): Tracer;
    getSpan(context: unknown): Span | undefined;
    setSpan(context: unknown, span: Span): unknown;
  };
  SpanKind: { CLIENT: number };
  SpanStatusCode: { ERROR: number };
}

/** The parts of an OpenTelemetry tracer the gateway uses. */
export interface Tracer {
  startSpan(name: string, options: { kind: number }, context: unknown): Span;
}

/** The parts of an OpenTelemetry span the gateway uses. */
export interface Span {
  isRecording(): boolean;
  setAttributes(attributes: Record<string, string | number>): void;
  setStatus(status: { code: number; message?: string }): void;
  end(): void;
}

/** `@opentelemetry/api` once loaded: undefined before, null when the application does not have it. */
let api: TraceApi | null | undefined;

/** Loads `@opentelemetry/api` if the application has it (an optional peer; nothing fails without it). */
export async function loadTraceApi(): Promise<void> {
  if (api !== undefined) return;
  const name = '@opentelemetry/api';
  api = await import(name).then(
    (loaded: TraceApi & { default?: TraceApi }) => (loaded.propagation ? loaded : (loaded.default ?? null)),
    () => null,
  );
}

/** `@opentelemetry/api` when the application has it (after {@link loadTraceApi}), else undefined. */
export function traceApi(): TraceApi | undefined {
  return api ?? undefined;
}

/**
 * The caller's own W3C trace context (`traceparent` / `tracestate` of the downstream request's
 * `_meta`), for the upstream request's `_meta`. With `@opentelemetry/api` and a propagator, the
 * request's CLIENT span replaces it with its own (see `upstream-span.ts`); without, it is passed on
 * as it came.
 */
export function traceMeta(exchange: McpExchange | undefined): { _meta?: Record<string, unknown> } {
  const own = exchange?.params?.['_meta'] as Record<string, unknown> | undefined;
  const carrier: Record<string, unknown> = {};
  for (const key of ['traceparent', 'tracestate']) if (typeof own?.[key] === 'string') carrier[key] = own[key];
  return Object.keys(carrier).length > 0 ? { _meta: carrier } : {};
}
