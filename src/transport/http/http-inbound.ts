import { McpInbound } from '../../calls/mcp-inbound.js';
import { disconnectSignal } from './disconnect-signal.js';
import { verifyParamHeaders, verifyRequestHeaders } from './mcp-headers.js';
import type { ResponseWriter } from './response-writer.js';

/** The inbound of one 2026-07-28 HTTP request: its headers cross-checked, its notifications on the response. */
export function httpInbound(writer: ResponseWriter): McpInbound {
  const { transport, res } = writer;
  const headers = transport.request.headers;
  return new McpInbound({
    transport,
    signal: () => disconnectSignal(res),
    notify: (notification) => writer.notify(notification),
    verifyHeaders: (method, params, version) => verifyRequestHeaders(headers, method, params, version),
    verifyToolHeaders: (headerParams, args) => verifyParamHeaders(headers, headerParams, args),
  });
}
