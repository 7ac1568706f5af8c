import type { McpExchange, McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { JsonRpcId, JsonRpcNotification } from '../protocol/json-rpc.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../protocol/wire-types.js';
import { McpInbound } from './mcp-inbound.js';

/** The envelope fields `createExchange` read: the exchange's own fields but those of the transport. */
export type ExchangeFields = Pick<
  RequestExchange,
  'id' | 'method' | 'params' | 'protocolVersion' | 'clientCapabilities' | 'clientInfo' | 'logLevel' | 'progressToken'
>;

/**
 * The frozen exchange of one request: a 2026-07-28 request's, with the fields its `_meta` envelope
 * gave, or a 2025-era call's, with its session's claims in their place. Its `signal` is its
 * inbound's, made on first use (see ARCHITECTURE.md, "Objects on the request path").
 * @internal
 */
export class RequestExchange implements McpExchange {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  readonly clientInfo: Readonly<Implementation> | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly progressToken: string | number | undefined;
  readonly transport: McpTransportInfo;
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly #inbound: McpInbound;

  constructor(fields: ExchangeFields, inbound: McpInbound) {
    this.id = fields.id;
    this.method = fields.method;
    this.params = fields.params;
    this.protocolVersion = fields.protocolVersion;
    this.clientCapabilities = fields.clientCapabilities;
    this.clientInfo = fields.clientInfo;
    this.logLevel = fields.logLevel;
    this.progressToken = fields.progressToken;
    this.transport = inbound.transport;
    this.notify = inbound.notify;
    this.#inbound = inbound;
    Object.freeze(this);
  }

  get signal(): AbortSignal {
    return this.#inbound.signal;
  }
}

/** `exchange` with another signal (a call's deadline joined to it), everything else the same. */
export function exchangeWithSignal(exchange: McpExchange, signal: AbortSignal): McpExchange {
  const inbound = new McpInbound({
    transport: exchange.transport,
    signal: () => signal,
    notify: (notification) => exchange.notify(notification),
  });
  const { id, method, params, protocolVersion, clientCapabilities, clientInfo, logLevel, progressToken } = exchange;
  return new RequestExchange(
    { id, method, params, protocolVersion, clientCapabilities, clientInfo, logLevel, progressToken },
    inbound,
  );
}
