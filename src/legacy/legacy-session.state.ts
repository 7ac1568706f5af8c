import type { JsonRpcNotification } from '../protocol/json-rpc.js';
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
  readonly streams = new Set<LegacyStream>();
  /** By the id of the server-to-client request. */
  readonly pending = new Map<string, PendingPush>();
  /** By the JSON of the client's request id, for `notifications/cancelled`. */
  readonly calls = new Map<string, CallCancellation>();
  /** What the session-duration metric needs of the session, once this node served it. */
  opened?: LegacySessionOpening;

  constructor(readonly id: string) {}

  /** Whether anything is open: such a state is never evicted. */
  get busy(): boolean {
    return this.streams.size > 0 || this.pending.size > 0 || this.calls.size > 0;
  }

  /** The newest open stream: each notification goes out on one stream only. */
  get stream(): LegacyStream | undefined {
    let last: LegacyStream | undefined;
    for (const stream of this.streams) last = stream;
    return last;
  }

  /** Ends everything open: streams close, calls abort, pushed requests fail. */
  end(reason: string, why: McpCallAbortReason = 'session-ended'): void {
    for (const stream of [...this.streams]) stream.close();
    this.streams.clear();
    const aborted = new McpCallAbortedError(reason, why);
    for (const call of this.calls.values()) call.cancel(aborted);
    this.calls.clear();
    for (const push of this.pending.values()) push.reject(aborted);
    this.pending.clear();
  }
}
