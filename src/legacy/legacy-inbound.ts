import type { McpInbound } from '../calls/mcp-inbound.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';
import type { LegacyChannel } from './legacy-channel.js';

/**
 * One 2025-era request as the method handlers see it: its channel's transport and notifications,
 * the call's own signal (the client's cancellation or disconnect), and the request's trace. A class
 * rather than an object literal because of the lazy `signal`: a getter written in a literal gives
 * every request's inbound a hidden class of its own.
 * @internal
 */
export class LegacyInbound implements McpInbound {
  readonly transport: McpTransportInfo;
  /** An own function: the exchange hands it on detached. */
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;

  constructor(
    channel: LegacyChannel,
    private readonly signalOf: () => AbortSignal,
    readonly trace: McpRequestTrace,
  ) {
    this.transport = channel.transport;
    this.notify = (notification) => channel.notify(notification);
  }

  get signal(): AbortSignal {
    return this.signalOf();
  }
}
