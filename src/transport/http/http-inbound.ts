import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpInbound } from '../../calls/mcp-inbound.js';
import { disconnectSignal } from './disconnect-signal.js';
import { verifyParamHeaders, verifyRequestHeaders } from './mcp-headers.js';
import type { ResponseWriter } from './response-writer.js';

/** The inbound of one 2026-07-28 HTTP request: its headers cross-checked, its notifications on the response. */
export function httpInbound(req: IncomingMessage, res: ServerResponse, writer: ResponseWriter): McpInbound {
  const headers = req.headers;
  return new McpInbound({
    transport: { kind: 'http', request: req },
    signal: () => disconnectSignal(res),
    notify: (notification) => writer.notify(notification),
    verifyHeaders: (method, params, version) => verifyRequestHeaders(headers, method, params, version),
    verifyToolHeaders: (headerParams, args) => verifyParamHeaders(headers, headerParams, args),
  });
}
