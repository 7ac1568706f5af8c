import type { ServerResponse } from 'node:http';
import { failure } from '../../protocol/rpc-outcome.js';
import { LIMIT_DEFAULTS } from '../../core/mcp-limits.options.js';
import { McpCallAbortedError } from '../../protocol/mcp-call-aborted.error.js';
import { McpError } from '../../protocol/mcp.error.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/json-rpc.js';
import type { HttpTransportInfo } from './http-request-transport.js';
import { abortResponse } from './disconnect-signal.js';
import { SseStream } from './sse-stream.js';
import type { SseKeepAlive } from './sse-keep-alive.js';
import { toWireChunks, toWireJson } from '../../protocol/wire-json.js';

export { SSE_HEADERS } from './sse-stream.js';

/** Told of every request refused before dispatch (the audit event and span of the refusal). */
export type RefusalListener = (status: number, response: JsonRpcResponse, writer: ResponseWriter) => void;

/**
 * Writes one request's answer: a single JSON body, or — once the handler emitted a notification
 * first — an SSE stream scoped to this request that ends with the response. The stream honours
 * backpressure: while its client is behind, progress is dropped and other messages hand back a
 * promise that settles once the client caught up; a client more than `maxStreamBacklogBytes`
 * behind gets its call aborted (`client-behind`) and its connection dropped. An open stream gets
 * keep-alive comments from `keepAlive`, when given.
 */
export class ResponseWriter {
  private sse: SseStream | undefined;
  /** What the endpoint learnt of the message so far, for a refusal's audit event. */
  era: 'modern' | 'legacy' = 'modern';
  method: string | undefined;

  constructor(
    readonly res: ServerResponse,
    /** Where the request came from, made once per request: every layer below reads this one. */
    readonly transport: HttpTransportInfo,
    private readonly onRefused?: RefusalListener,
    private readonly maxBacklogBytes: number = LIMIT_DEFAULTS.maxStreamBacklogBytes,
    private readonly keepAlive?: SseKeepAlive,
  ) {}

  private get streaming(): boolean {
    return this.sse !== undefined;
  }

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  /**
   * A notification, or (2025-era sessions only) a server-to-client request, ahead of the response.
   * Returns a promise while the client is behind: it settles when the client caught up (or left).
   */
  notify(message: JsonRpcNotification | JsonRpcRequest): void | Promise<void> {
    if (this.closed) return;
    const sse = this.startStream();
    // Progress is superseded by the next report: while the client is behind, it is not kept.
    if (sse.behind && message.method === 'notifications/progress') return;
    if (!sse.send(message)) return this.dropBehind();
    if (sse.behind) return sse.drained();
  }

  /** Answers with a standalone SSE stream (a 2025-era GET), bounded like every other. */
  eventStream(): SseStream {
    return this.startStream();
  }

  /** The client is too far behind: the call stops (its handler sees why) and the connection goes. */
  private dropBehind(): void {
    abortResponse(
      this.res,
      new McpCallAbortedError(
        `The client fell more than ${this.maxBacklogBytes} bytes behind on its stream`,
        'client-behind',
      ),
    );
    this.sse?.destroy();
  }

  /** Ends the answer without a response (a cancelled 2025-era call): an SSE stream that just closes. */
  endWithoutResponse(): void {
    if (this.closed) return;
    this.startStream();
    this.res.end();
  }

  respond(status: number, response: JsonRpcResponse, headers?: Readonly<Record<string, string>>): void {
    if (this.closed) return;
    if (this.streaming) {
      this.res.end(`event: message\ndata: ${toWireJson(response)}\n\n`);
      return;
    }
    const body = toWireChunks(response);
    if (typeof body === 'string') this.writeJson(status, body, headers);
    else this.writeChunks(status, body, headers);
  }

  /** A whole JSON body, as a string: Node sends the head and a string body in one write. */
  private writeJson(status: number, json: string, headers: Readonly<Record<string, string>> | undefined): void {
    this.res.writeHead(status, jsonHead(Buffer.byteLength(json), headers));
    this.res.end(json);
  }

  /**
   * A JSON body in pieces, some already UTF-8 (a cached list page): written corked, so the head and
   * the pieces still leave in one write, without encoding the cached bytes again.
   */
  private writeChunks(
    status: number,
    chunks: ReadonlyArray<string | Buffer>,
    headers: Readonly<Record<string, string>> | undefined,
  ): void {
    let length = 0;
    for (const chunk of chunks) length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    this.res.writeHead(status, jsonHead(length, headers));
    this.res.cork();
    for (let i = 0; i < chunks.length - 1; i++) this.res.write(chunks[i]!);
    this.res.end(chunks[chunks.length - 1]); // end() uncorks
  }

  private startStream(): SseStream {
    if (!this.sse) {
      this.sse = new SseStream(this.res, this.maxBacklogBytes);
      this.sse.open();
      this.keepAlive?.keep(this.sse);
    }
    return this.sse;
  }

  /** A request refused before dispatch: a JSON-RPC error (-32600, id null) with this HTTP status. */
  refuse(status: number, message: string, headers?: Readonly<Record<string, string>>): void {
    this.refuseWith(status, failure(null, McpError.invalidRequest(message)).response, headers);
  }

  /** A request refused before dispatch with this error response (parse error, unsupported era...). */
  refuseWith(status: number, response: JsonRpcResponse, headers?: Readonly<Record<string, string>>): void {
    if (this.closed) return;
    this.respond(status, response, headers);
    this.onRefused?.(status, response, this);
  }

  /** An HTTP answer outside JSON-RPC: 202 for a notification, authentication challenges. */
  plain(status: number, headers: Readonly<Record<string, string>>, body?: Readonly<Record<string, unknown>>): void {
    if (this.closed) return;
    if (this.streaming) {
      this.res.end();
      return;
    }
    if (body === undefined) {
      this.res.writeHead(status, headers);
      this.res.end();
    } else {
      this.writeJson(status, JSON.stringify(body), headers);
    }
  }
}

function jsonHead(
  length: number,
  headers: Readonly<Record<string, string>> | undefined,
): Record<string, string | number> {
  const head: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': length };
  return headers ? Object.assign(head, headers) : head;
}
