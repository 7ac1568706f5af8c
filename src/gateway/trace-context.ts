import type { McpExchange } from '../protocol/mcp-exchange.js';

/** What the gateway uses of `@opentelemetry/api`, when the application has it. */
interface TraceApi {
  context: { active(): unknown };
  propagation: { inject(context: unknown, carrier: Record<string, unknown>): void };
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

/**
 * The W3C trace context an upstream request carries in `_meta`: the current one (our server span,
 * with `McpOpenTelemetryModule`), else the caller's own `traceparent` / `tracestate` passed on.
 */
export function traceMeta(exchange: McpExchange | undefined): { _meta?: Record<string, unknown> } {
  const carrier: Record<string, unknown> = {};
  api?.propagation.inject(api.context.active(), carrier);
  if (typeof carrier['traceparent'] !== 'string') {
    const own = exchange?.params?.['_meta'] as Record<string, unknown> | undefined;
    for (const key of ['traceparent', 'tracestate']) if (typeof own?.[key] === 'string') carrier[key] = own[key];
  }
  return Object.keys(carrier).length > 0 ? { _meta: carrier } : {};
}
