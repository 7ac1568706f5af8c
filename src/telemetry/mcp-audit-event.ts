import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { JsonRpcId } from '../protocol/json-rpc.js';
import type { McpRequestOutcome } from './mcp-request-trace.js';

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
  readonly id: JsonRpcId | null;
  /** `McpPrincipalSource`'s answer (`null`: anonymous). */
  readonly principal: string | null;
  /** The elicitation flow the request belongs to (an MRTR call that asked or carried a requestState). */
  readonly flowId?: string;
  /** The 2025-era session's internal id (from its sealed claims, not the token). */
  readonly sessionId?: string;
  readonly outcome: McpRequestOutcome;
  /**
   * Set on requests refused before dispatch (unreadable or oversized body, foreign Origin, bad
   * session id, unsupported version...): they carry no principal, and over HTTP the status sent.
   */
  readonly refused?: { readonly httpStatus?: number };
}
