import type { InputRequest } from '../protocol/wire-types.js';
import type { McpAuditEvent } from './mcp-audit-event.js';
import type { McpRequestTrace } from './mcp-request-trace.js';
import type { McpSessionEnd } from './mcp-session-end.js';

/**
 * Watches every MCP request: a provider marked with `@McpObserver()` (as
 * `@mocapi/nestjs/opentelemetry` registers its own), or the one in the `INTEGRATION_REQUEST_OBSERVER`
 * slot. Observers compose with each other and with the audit sink: all of them see every request.
 *
 * @publicApi
 */
export interface McpRequestObserver {
  /**
   * Runs the request: an observer that needs something active while the handler runs (a span, so
   * that the handler's own spans nest under it) wraps `next`. `trace.outcome` is set when `next`
   * resolves. Must call `next` exactly once and hand back what it resolves to.
   */
  around?<T>(trace: McpRequestTrace, next: () => Promise<T>): Promise<T>;
  /** A 2025-era input request was sent to the client (inside `around`). */
  inputRequestPushed?(trace: McpRequestTrace, key: string, request: InputRequest): void;
  /** The request is answered (after `around` unwound). */
  finished?(event: McpAuditEvent, trace: McpRequestTrace): void;
  /** A 2025-era session ended on this node (see {@link McpSessionEnd}). */
  sessionEnded?(session: McpSessionEnd): void;
}
