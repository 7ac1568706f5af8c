import type { IncomingMessage } from 'node:http';
import type { ClientCapabilities, Implementation, LoggingLevel } from './wire-types.js';

/**
 * Where a request came from. Handlers reach the raw HTTP request through it (guards, auth).
 * `clientAddress` is the client's address as the HTTP adapter reports it (Express `req.ip`, Fastify
 * `request.ip`): the connection's peer, or, when the application trusts its proxy (Express
 * `trust proxy`, Fastify `trustProxy`), the address that proxy forwarded; undefined only when the
 * connection closed before it was read. An anonymous caller's per-caller bounds (task ownership and
 * quotas, 2025-era session quotas, the rate limiter) are keyed by it. `queue`: the handler of a
 * task runs from a task queue's job, on whichever node took it, with no request.
 */
export type McpTransportInfo =
  | { readonly kind: 'http'; readonly request: IncomingMessage; readonly clientAddress: string | undefined }
  | { readonly kind: 'stdio' }
  | { readonly kind: 'queue' };

/**
 * One JSON-RPC request as the server sees it, after the `_meta` envelope was checked.
 * Immutable: nothing is remembered between requests.
 *
 * @publicApi
 */
export interface McpExchange {
  /** The JSON-RPC id (a string or a finite number). */
  readonly id: string | number;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  readonly clientInfo?: Readonly<Implementation>;
  /** Present only when the request asked for log messages (deprecated `_meta` logLevel). */
  readonly logLevel?: LoggingLevel;
  /** Present only when the request carries `_meta.progressToken`. */
  readonly progressToken?: string | number;
  readonly transport: McpTransportInfo;
  /** Aborted when the client goes away (closed connection) or the server shuts down. */
  readonly signal: AbortSignal;
  /**
   * Sends a notification related to this request on its response stream (switches HTTP to SSE).
   * While the client is behind on that stream it returns a promise that settles once it caught up.
   */
  notify(notification: { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }): void | Promise<void>;
}
