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

/** What makes up an {@link McpInbound}; {@link McpInbound.with} replaces some of it. */
export interface McpInboundParts {
  readonly transport: McpTransportInfo;
  /** Made on first use of {@link McpInbound.signal} (an HTTP request's needs a listener on its socket). */
  readonly signal: () => AbortSignal;
  /** Writes a notification related to this request (HTTP switches the response to SSE). */
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly verifyHeaders?: VerifyHeaders;
  readonly verifyToolHeaders?: VerifyToolHeaders;
  /** The request's trace, for the observers (set by the pipeline, filled in by the MRTR runner). */
  readonly trace?: McpRequestTrace;
}

/**
 * One request as every layer below the transport sees it, whatever the transport and era: where it
 * came from, its signal, how to send it notifications, the transport's own checks and its trace.
 * A transport makes one per request; a layer that adds something (the pipeline its trace, the
 * 2025-era leg a call's cancellation) makes a copy with {@link with}. Always the same fields, so
 * every inbound has one shape (see ARCHITECTURE.md, "Objects on the request path").
 */
export class McpInbound {
  readonly transport: McpTransportInfo;
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly verifyHeaders: VerifyHeaders | undefined;
  readonly verifyToolHeaders: VerifyToolHeaders | undefined;
  readonly trace: McpRequestTrace | undefined;
  readonly #signal: () => AbortSignal;

  constructor(parts: McpInboundParts) {
    this.transport = parts.transport;
    this.notify = parts.notify;
    this.verifyHeaders = parts.verifyHeaders;
    this.verifyToolHeaders = parts.verifyToolHeaders;
    this.trace = parts.trace;
    this.#signal = parts.signal;
  }

  /** Aborted when the client goes away (or cancels) before the answer was written. */
  get signal(): AbortSignal {
    return this.#signal();
  }

  /** This inbound with some of its parts replaced. */
  with(changes: Partial<McpInboundParts>): McpInbound {
    return new McpInbound({
      transport: changes.transport ?? this.transport,
      signal: changes.signal ?? this.#signal,
      notify: changes.notify ?? this.notify,
      verifyHeaders: changes.verifyHeaders ?? this.verifyHeaders,
      verifyToolHeaders: changes.verifyToolHeaders ?? this.verifyToolHeaders,
      trace: changes.trace ?? this.trace,
    });
  }
}
