import type { McpHeaderParam } from '../schema/dto-json-schema.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';

/** What a transport hands the dispatcher along with one JSON-RPC message. */
export interface McpInbound {
  readonly transport: McpTransportInfo;
  readonly signal: AbortSignal;
  /** Writes a notification related to this request (HTTP switches the response to SSE). */
  notify(notification: JsonRpcNotification): void | Promise<void>;
  /** Cross-checks transport metadata (HTTP `Mcp-*` headers) with the body; throws -32020. */
  verifyHeaders?(method: string, params: Readonly<Record<string, unknown>>, protocolVersion: string): void;
  /** Cross-checks `Mcp-Param-*` headers with the arguments of a tool that declares `x-mcp-header`. */
  verifyToolHeaders?(headerParams: readonly McpHeaderParam[], args: Readonly<Record<string, unknown>>): void;
  /** The request's trace, for the observers (set by the dispatchers, filled in by the MRTR runner). */
  readonly trace?: McpRequestTrace;
}
