import type { ServerResponse } from 'node:http';
import type { LegacyChannel } from '../../legacy/legacy-channel.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../../protocol/json-rpc.js';
import type { McpTransportInfo } from '../../protocol/mcp-exchange.js';
import { disconnectSignal } from './disconnect-signal.js';
import type { ResponseWriter } from './response-writer.js';

/** While the client's user thinks about a question, comments keep proxies from closing the stream. */
export const KEEP_ALIVE_MS = 25_000;

/**
 * How one 2025-era POST carries its traffic back: notifications and pushed requests on the POST's
 * own SSE stream; its `signal` is made on first use.
 */
export class HttpLegacyChannel implements LegacyChannel {
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    readonly transport: McpTransportInfo,
    private readonly res: ServerResponse,
    private readonly writer: ResponseWriter,
    readonly canRequest: boolean,
  ) {}

  /** Aborted when the client goes away before the answer was written; made on first use. */
  get signal(): AbortSignal {
    return disconnectSignal(this.res);
  }

  /** A promise while the client is behind on the stream (see {@link ResponseWriter.notify}). */
  notify(notification: JsonRpcNotification): void | Promise<void> {
    return this.writer.notify(notification);
  }

  /** A pushed request; from the first one on, the stream gets a keep-alive comment now and then. */
  request(request: JsonRpcRequest): void | Promise<void> {
    this.keepAlive ??= setInterval(() => this.writer.comment('keep-alive'), KEEP_ALIVE_MS).unref();
    return this.writer.notify(request);
  }

  /** The request is answered: no more keep-alives. */
  close(): void {
    clearInterval(this.keepAlive);
  }
}
