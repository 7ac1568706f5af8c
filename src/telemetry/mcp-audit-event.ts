import type { McpTransportInfo } from '../protocol/mcp-exchange.js';

/**
 * One finished MCP request, as the audit sink receives it. Plain data, ready for `JSON.stringify`.
 *
 * @publicApi
 */
export interface McpAuditEvent {
  /** When the request started, ISO 8601. */
  readonly time: string;
  /** How long it took to answer, in ms. */
  readonly durationMs: number;
  /** What the request arrived on (`queue` is the kind of a queued task's run, which is not audited). */
  readonly transport: McpTransportInfo['kind'];
  /** `modern` (2026-07-28) or `legacy` (a 2025-era session, `initialize` included). */
  readonly era: 'modern' | 'legacy';
  /** Negotiated or claimed revision; absent when the request was refused before it was read. */
  readonly protocolVersion?: string;
  /** Empty when the request was refused before its method could be read. */
  readonly method: string;
  /** Tool name, prompt name or resource URI. */
  readonly target?: string;
  /** Null when the request was refused before its id could be read. */
  readonly id: string | number | null;
  /** `McpPrincipalSource`'s answer (`null`: anonymous). */
  readonly principal: string | null;
  /** The elicitation flow the request belongs to (an MRTR call that asked or carried a requestState). */
  readonly flowId?: string;
  /** The 2025-era session's internal id (from its sealed claims, not the token). */
  readonly sessionId?: string;
  /**
   * How the request ended:
   *
   * - `complete`: a result (2025-era pushed flows end here, after their in-process rounds);
   * - `input_required`: a 2026-07-28 round asked the client `inputRequests` questions;
   * - `task`: a tools/call answered with a task (the tasks extension), with its id;
   * - `tool_error`: a tools/call result with `isError: true`;
   * - `protocol_error`: a JSON-RPC error, with its code and message;
   * - `rejected_request_state`: a retry's requestState was refused (`-32602`, `data.reason`);
   * - `rate_limited`: a JSON-RPC error that travels with HTTP status 429, with its code and message;
   * - `cancelled`: a 2025-era request the client cancelled (no response was sent).
   */
  readonly outcome:
    | { readonly kind: 'complete' }
    | { readonly kind: 'input_required'; readonly inputRequests: number }
    | { readonly kind: 'task'; readonly taskId: string }
    | { readonly kind: 'tool_error' }
    | { readonly kind: 'protocol_error'; readonly code: number; readonly message?: string }
    | { readonly kind: 'rejected_request_state'; readonly reason: string }
    | { readonly kind: 'rate_limited'; readonly code: number; readonly message?: string }
    | { readonly kind: 'cancelled' };
  /**
   * Set on requests refused before dispatch (unreadable or oversized body, foreign Origin, bad
   * session id, unsupported version...): they carry no principal, and over HTTP the status sent.
   */
  readonly refused?: { readonly httpStatus?: number };
}
