import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { McpInbound } from '../../calls/mcp-inbound.js';
import type { JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { McpTransportInfo } from '../../protocol/mcp-exchange.js';
import type { McpHeaderParam } from '../../schema/dto-json-schema.js';
import { disconnectSignal } from './disconnect-signal.js';
import { verifyParamHeaders, verifyRequestHeaders } from './mcp-headers.js';
import type { ResponseWriter } from './response-writer.js';

/**
 * One 2026-07-28 HTTP request as the dispatcher sees it. A class rather than an object literal
 * because of its lazy `signal`: a getter written in a literal is a new accessor per request, which
 * gives every request's object a map (hidden class) of its own; on the prototype it is shared.
 * The other members stay own closures, since they are also handed on as detached functions.
 */
export class HttpInbound implements McpInbound {
  readonly transport: McpTransportInfo;
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly verifyHeaders: (method: string, params: Readonly<Record<string, unknown>>, protocolVersion: string) => void;
  readonly verifyToolHeaders: (
    headerParams: readonly McpHeaderParam[],
    args: Readonly<Record<string, unknown>>,
  ) => void;

  constructor(
    req: IncomingMessage,
    private readonly res: ServerResponse,
    writer: ResponseWriter,
  ) {
    const headers: IncomingHttpHeaders = req.headers;
    this.transport = { kind: 'http', request: req };
    this.notify = (notification) => writer.notify(notification);
    this.verifyHeaders = (method, params, version) => verifyRequestHeaders(headers, method, params, version);
    this.verifyToolHeaders = (headerParams, args) => verifyParamHeaders(headers, headerParams, args);
  }

  /** Aborted when the client goes away before the answer was written; made on first use. */
  get signal(): AbortSignal {
    return disconnectSignal(this.res);
  }
}
