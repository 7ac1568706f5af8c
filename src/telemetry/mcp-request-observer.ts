import type { McpExchange, McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { InputRequest } from '../protocol/wire-types.js';
import type { McpAuditEvent } from './mcp-audit-event.js';

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
  around?<T>(trace: McpRequestObserver.Trace, next: () => Promise<T>): Promise<T>;
  /** A 2025-era input request was sent to the client (inside `around`). */
  inputRequestPushed?(trace: McpRequestObserver.Trace, key: string, request: InputRequest): void;
  /**
   * Sends a 2025-era input request to the client (inside `around`, after `inputRequestPushed`):
   * `send` sends it and resolves with the client's answer, or rejects when the push fails (the
   * client answered with an error, did not answer in time, or the call ended first). An observer
   * that propagates context adds it to `push.meta` before calling `send` (e.g. W3C `traceparent`):
   * it goes out in the request's `params._meta`. Must call `send` exactly once and hand back what
   * it resolves to.
   */
  aroundPush?<T>(trace: McpRequestObserver.Trace, push: McpRequestObserver.Push, send: () => Promise<T>): Promise<T>;
  /**
   * A client notification was received and handled: 2025-era ones in a session
   * (`notifications/initialized`, `notifications/cancelled`, ...), and those a 2026-07-28 endpoint
   * accepts (with 202, running nothing). Notifications get no audit event.
   */
  notified?(notification: McpRequestObserver.Notification): void;
  /** The request is answered (after `around` unwound). */
  finished?(event: McpAuditEvent, trace: McpRequestObserver.Trace): void;
  /** A 2025-era session ended on this node (see {@link McpRequestObserver.SessionEnd}). */
  sessionEnded?(session: McpRequestObserver.SessionEnd): void;
}

// A namespace of types only, merged with the interface: what an observer is handed.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace McpRequestObserver {
  /**
   * One MCP request while it is being answered: filled in along the way (the principal and the
   * replay session by `MrtrCallRunner.begin`, the outcome at the end) and read by the observers.
   *
   * It travels explicitly, as the `trace` of the request's `McpInbound` — the object the transport
   * hands the dispatcher and every method handler already receives — rather than through a second
   * AsyncLocalStorage or a WeakMap keyed by exchange: the call scope (`mcpCallScope`) only opens
   * inside `MrtrEngine.run`, after the principal was resolved and after a requestState was refused,
   * and one more async context per request would cost on the hot path for nothing an argument
   * cannot carry.
   */
  export interface Trace {
    /** When the request started (ms since the epoch). */
    readonly time: number;
    /** `performance.now()` at the start, for the duration. */
    readonly startedAt: number;
    readonly transport: McpTransportInfo['kind'];
    readonly era: 'modern' | 'legacy';
    /** Null when the request was refused before its id could be read. */
    readonly id: string | number | null;
    /** Empty when the request was refused before its method could be read. */
    readonly method: string;
    readonly params: Readonly<Record<string, unknown>>;
    /** Tool name or prompt name (`params.name`) or resource URI (`params.uri`). */
    readonly target?: string;
    protocolVersion?: string;
    /** 2025-era sessions: the session's internal id from its sealed claims (never the token). */
    sessionId?: string;
    /** Undefined until resolved (MRTR calls and 2025-era sessions know it early). */
    principal?: string | null;
    /** The call's replay session, for its flow id. */
    replay?: TracedReplay;
    /** The exchange, once established (lets the principal be resolved late). */
    exchange?: McpExchange;
    /** 2025-era input requests pushed to the client so far. */
    pushedInputRequests: number;
    /**
     * Set once the request is answered, before the observers unwind (an error outcome carries the
     * JSON-RPC error's `message` when one was sent).
     */
    outcome?: McpAuditEvent['outcome'];
    /** Set when the request was refused before dispatch (see `McpAuditEvent.refused`). */
    refused?: { readonly httpStatus?: number };
  }

  /**
   * A 2025-era input request on its way to the client (`aroundPush`): a server-to-client
   * `elicitation/create`, `sampling/createMessage` or `roots/list` on the call's stream.
   */
  export interface Push {
    /** The JSON-RPC id of the pushed request. */
    readonly id: string;
    /** The input request's key in its round (`inputRequests`). */
    readonly key: string;
    readonly method: string;
    /** Entries set here go out in the pushed request's `params._meta` (trace context: `traceparent`, `tracestate`). */
    readonly meta: Record<string, unknown>;
  }

  /** A client notification, as observers see it (`notified`). */
  export interface Notification {
    /** When it was handled (ms since the epoch). */
    readonly time: number;
    /** `performance.now()` when it was handled. */
    readonly startedAt: number;
    readonly transport: McpTransportInfo['kind'];
    readonly era: 'modern' | 'legacy';
    readonly method: string;
    /** Its params (empty when it had none), `_meta` included. */
    readonly params: Readonly<Record<string, unknown>>;
    /** The session's revision (2025 era), or the claimed one when this server supports it (2026-07-28). */
    readonly protocolVersion?: string;
    /** 2025-era sessions: the session's internal id (never the token). */
    readonly sessionId?: string;
  }

  /** What a trace needs to know of a replay session (ReplaySession satisfies it). */
  export interface TracedReplay {
    readonly isRetry: boolean;
    readonly sealedRound?: unknown;
    readonly flowId: string;
  }

  /**
   * A 2025-era session that ended on this node, as observers see it (`sessionEnded`): over HTTP
   * when the client DELETEs it here, or when this node shuts down while it holds the session's
   * state (a session already past its lifetime then counts as ended at its expiry); over stdio when
   * the connection closes. 2026-07-28 has no sessions.
   */
  export interface SessionEnd {
    /** The session's internal id (from its sealed claims, never the token). */
    readonly sessionId: string;
    readonly transport: 'http' | 'stdio';
    /** The negotiated 2025-era revision. */
    readonly protocolVersion: string;
    /** When the session was issued (`initialize` answered), ms since the epoch. */
    readonly startedAt: number;
    readonly durationMs: number;
    /** Set when the session ended in error (e.g. `EPIPE` when a stdio client vanished). */
    readonly errorType?: string;
  }
}
