import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { McpHeaderParam } from '../schema/dto-json-schema.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';
import type { McpInbound } from '../calls/mcp-inbound.js';

/**
 * A transport's inbound with the request's trace attached (see McpRequestTrace). Its members are
 * the transport's own (closures, used detached as well), and its `signal` stays lazy through a
 * getter on this class's prototype. Not `Object.create(inbound, ...)`: that turns each request's
 * inbound into a prototype, which costs V8 a hidden class per request.
 * @internal
 */
export class TracedInbound implements McpInbound {
  readonly transport: McpTransportInfo;
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly verifyHeaders:
    ((method: string, params: Readonly<Record<string, unknown>>, protocolVersion: string) => void) | undefined;
  readonly verifyToolHeaders:
    ((headerParams: readonly McpHeaderParam[], args: Readonly<Record<string, unknown>>) => void) | undefined;
  readonly #inbound: McpInbound;

  constructor(
    inbound: McpInbound,
    readonly trace: McpRequestTrace,
  ) {
    this.transport = inbound.transport;
    this.notify = inbound.notify;
    this.verifyHeaders = inbound.verifyHeaders;
    this.verifyToolHeaders = inbound.verifyToolHeaders;
    this.#inbound = inbound;
  }

  get signal(): AbortSignal {
    return this.#inbound.signal;
  }
}
