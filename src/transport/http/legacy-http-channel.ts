import type { ServerResponse } from 'node:http';
import type { LegacyChannel } from '../../legacy/legacy-channel.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../../protocol/json-rpc.js';
import type { McpTransportInfo } from '../../protocol/mcp-exchange.js';
import { disconnectSignal } from './disconnect-signal.js';
import type { ResponseWriter } from './response-writer.js';

/**
 * How one 2025-era POST carries its traffic back: notifications and pushed requests on the POST's
 * own SSE stream (kept alive, while the client's user thinks about a question, by the endpoint's
 * `SseKeepAlive`); its `signal` is made on first use.
 */
export class HttpLegacyChannel implements LegacyChannel {
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

  /** A pushed request, on the same stream. */
  request(request: JsonRpcRequest): void | Promise<void> {
    return this.writer.notify(request);
  }
}
