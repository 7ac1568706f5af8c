import type { McpExchange, McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { JsonRpcId, JsonRpcNotification } from '../protocol/json-rpc.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../protocol/wire-types.js';
import { McpInbound } from './mcp-inbound.js';

/** The envelope fields `createExchange` read: the exchange's own fields but those of the transport. */
export type ExchangeFields = Pick<
  RequestExchange,
  'id' | 'method' | 'params' | 'protocolVersion' | 'clientCapabilities' | 'clientInfo' | 'logLevel' | 'progressToken'
>;

/** The task a call runs for, once it is one (the handler's task scope): undefined while it is a plain request. */
export interface ExchangeTask {
  readonly taskId: string | undefined;
}

/**
 * The frozen exchange of one call, the only kind there is: a 2026-07-28 request's, with the fields
 * its `_meta` envelope gave; a 2025-era round's, with its session's claims in their place; a call
 * under a deadline; a task's (`task`: from the moment the call is a task, `progressToken` is the
 * task id and `logLevel` undefined, and its inbound sends progress to the task's status). Its
 * `signal` is its inbound's, made on first use (see ARCHITECTURE.md, "Objects on the request path").
 * @internal
 */
export class RequestExchange implements McpExchange {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  readonly clientInfo: Readonly<Implementation> | undefined;
  readonly transport: McpTransportInfo;
  readonly notify: (notification: JsonRpcNotification) => void | Promise<void>;
  readonly #logLevel: LoggingLevel | undefined;
  readonly #progressToken: string | number | undefined;
  readonly #inbound: McpInbound;
  readonly #task: ExchangeTask | undefined;

  constructor(fields: ExchangeFields, inbound: McpInbound, task?: ExchangeTask) {
    this.id = fields.id;
    this.method = fields.method;
    this.params = fields.params;
    this.protocolVersion = fields.protocolVersion;
    this.clientCapabilities = fields.clientCapabilities;
    this.clientInfo = fields.clientInfo;
    this.transport = inbound.transport;
    this.notify = inbound.notify;
    this.#logLevel = fields.logLevel;
    this.#progressToken = fields.progressToken;
    this.#inbound = inbound;
    this.#task = task;
    Object.freeze(this);
  }

  get signal(): AbortSignal {
    return this.#inbound.signal;
  }

  get progressToken(): string | number | undefined {
    return this.#task?.taskId ?? this.#progressToken;
  }

  get logLevel(): LoggingLevel | undefined {
    return this.#task?.taskId === undefined ? this.#logLevel : undefined;
  }
}

/** The fields of `exchange` a new exchange of the same call copies. */
function exchangeFields(exchange: McpExchange): ExchangeFields {
  const { id, method, params, protocolVersion, clientCapabilities, clientInfo, logLevel, progressToken } = exchange;
  return { id, method, params, protocolVersion, clientCapabilities, clientInfo, logLevel, progressToken };
}

/** `exchange` with another signal (a call's deadline joined to it), everything else the same. */
export function exchangeWithSignal(exchange: McpExchange, signal: AbortSignal): McpExchange {
  const inbound = new McpInbound({
    transport: exchange.transport,
    signal: () => signal,
    notify: (notification) => exchange.notify(notification),
  });
  return new RequestExchange(exchangeFields(exchange), inbound);
}
