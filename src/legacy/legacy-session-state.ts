import type { JsonRpcId, JsonRpcNotification } from '../protocol/json-rpc.js';
import type { LoggingLevel } from '../protocol/wire-types.js';
import type { CallCancellation } from './call-cancellation.js';
import { McpCallAbortedError, type McpCallAbortReason } from '../protocol/mcp-call-aborted.error.js';

/** Where a session's unsolicited notifications go: an HTTP GET stream, or the stdio connection. */
export interface LegacyStream {
  send(notification: JsonRpcNotification): void;
  close(): void;
}

/** When and how a session was opened (its sealed claims, or the stdio connection's initialize). */
export interface LegacySessionOpening {
  readonly transport: 'http' | 'stdio';
  readonly protocolVersion: string;
  /** ms since the epoch. */
  readonly issuedAt: number;
}

/** A server-to-client request waiting for the client's response. */
export interface PendingPush {
  readonly method: string;
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

/**
 * What of a 2025-era session changes after `initialize` and so cannot live in its sealed id: the
 * log level, resource subscriptions, open streams, pushed requests awaiting answers and calls in
 * flight. It lives on the node that holds the session's streams.
 */
export class LegacySessionState {
  /** Set by `logging/setLevel`; until then every level is sent (the 2025 default). */
  logLevel: LoggingLevel | undefined;
  readonly subscriptions = new Set<string>();
  /** The session's one GET stream (or the stdio output): a new GET replaces it. */
  private current: LegacyStream | undefined;
  /** By the id of the server-to-client request. */
  readonly pending = new Map<string, PendingPush>();
  /** By the client's request id, for `notifications/cancelled` (the string "1" and the number 1 are two ids). */
  readonly calls = new Map<JsonRpcId, CallCancellation>();
  /** What the session-duration metric needs of the session, once this node served it. */
  opened?: LegacySessionOpening;

  /**
   * `caller` is who holds the session on this node (its principal, else its client address), for the
   * per-caller bound; a session of its own by default (stdio: one connection, one session).
   */
  constructor(
    readonly id: string,
    readonly caller: string = `session:${id}`,
  ) {}

  /** Whether anything is open: such a state is never evicted. */
  get busy(): boolean {
    return this.current !== undefined || this.pending.size > 0 || this.calls.size > 0;
  }

  /** Where the session's unsolicited notifications go, while a stream is open. */
  get stream(): LegacyStream | undefined {
    return this.current;
  }

  /** Opens `stream` as the session's stream; the one it replaces is closed. */
  attach(stream: LegacyStream): void {
    const previous = this.current;
    this.current = stream;
    if (previous && previous !== stream) previous.close();
  }

  /** Forgets `stream` if it is still the session's stream (it closed). */
  detach(stream: LegacyStream): void {
    if (this.current === stream) this.current = undefined;
  }

  /** Ends everything open: streams close, calls abort, pushed requests fail. */
  end(reason: string, why: McpCallAbortReason = 'session-ended'): void {
    const stream = this.current;
    this.current = undefined;
    stream?.close();
    const aborted = new McpCallAbortedError(reason, why);
    for (const call of this.calls.values()) call.cancel(aborted);
    this.calls.clear();
    for (const push of this.pending.values()) push.reject(aborted);
    this.pending.clear();
  }
}
