import type { McpHeaderParam } from '../schema/dto-json-schema.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';

/** Cross-checks transport metadata (HTTP `Mcp-*` headers) with the body; throws -32020. */
export type VerifyHeaders = (
  method: string,
  params: Readonly<Record<string, unknown>>,
  protocolVersion: string,
) => void;
/** Cross-checks `Mcp-Param-*` headers with the arguments of a tool that declares `x-mcp-header`. */
export type VerifyToolHeaders = (
  headerParams: readonly McpHeaderParam[],
  args: Readonly<Record<string, unknown>>,
) => void;

/** What a transport makes an {@link McpInbound} of. */
export interface McpInboundParts {
  readonly transport: McpTransportInfo;
  /** Made on first use of {@link McpInbound.signal} (an HTTP request's needs a listener on its socket). */
  readonly signal: () => AbortSignal;
  /** Writes a notification related to this request (HTTP switches the response to SSE). */
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly verifyHeaders?: VerifyHeaders;
  readonly verifyToolHeaders?: VerifyToolHeaders;
}

/**
 * One request as every layer below the transport sees it, whatever the transport and era: where it
 * came from, its signal, how to send it notifications, the transport's own checks and its trace.
 * A transport (or, for a 2025-era call, the session's leg, which adds the call's cancellation)
 * makes one per request and it travels down as it is; the request pipeline sets its trace. Always
 * the same fields, so every inbound has one shape (see ARCHITECTURE.md, "Objects on the request
 * path").
 */
export class McpInbound {
  readonly transport: McpTransportInfo;
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly verifyHeaders: VerifyHeaders | undefined;
  readonly verifyToolHeaders: VerifyToolHeaders | undefined;
  /** The request's trace, for the observers: set by the request pipeline, filled in on the way. */
  trace: McpRequestTrace | undefined;
  readonly #signal: () => AbortSignal;

  constructor(parts: McpInboundParts) {
    this.transport = parts.transport;
    this.notify = parts.notify;
    this.verifyHeaders = parts.verifyHeaders;
    this.verifyToolHeaders = parts.verifyToolHeaders;
    this.trace = undefined;
    this.#signal = parts.signal;
  }

  /** Aborted when the client goes away (or cancels) before the answer was written. */
  get signal(): AbortSignal {
    return this.#signal();
  }
}
