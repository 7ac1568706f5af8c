import type { JsonRpcId, JsonRpcNotification } from '../protocol/json-rpc.js';
import type { McpExchange, McpTransportInfo } from '../protocol/mcp-exchange.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../protocol/wire-types.js';
import type { TaskCallScope } from './task-call.scope.js';
import type { TaskProgressRecorder } from './task-progress.recorder.js';

/** What a task's call is, when it is not the request's own (a replay runs on a tasks/update). */
export type TaskExchangeCall = Pick<McpExchange, 'method' | 'params' | 'protocolVersion' | 'clientCapabilities'>;

/**
 * The frozen exchange a task's handler sees: the request's, with `signal` in place of the
 * request's, and notifications that go to the request until the call becomes a task (the scope's
 * `taskId` is defined), then to `progress`: no progress or log notification is sent for a task,
 * its progress becomes its `statusMessage`. From then on `progressToken` is the task id and
 * `logLevel` is undefined.
 * @internal
 */
export class TaskExchange implements McpExchange {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  readonly clientInfo: Readonly<Implementation> | undefined;
  readonly transport: McpTransportInfo;
  readonly signal: AbortSignal;
  /** An own field, as on the request's exchange: a handler may pass it on unbound. */
  readonly notify: (notification: JsonRpcNotification) => void;
  readonly #request: McpExchange;
  readonly #scope: TaskCallScope;

  /**
   * `request` is the exchange the handler runs in (the tools/call, or the tasks/update that
   * resumes the task, then with the task's `call`), `scope` the task scope the handler runs under.
   */
  constructor(
    request: McpExchange,
    signal: AbortSignal,
    scope: TaskCallScope,
    progress: TaskProgressRecorder,
    call: TaskExchangeCall = request,
  ) {
    this.id = request.id;
    this.method = call.method;
    this.params = call.params;
    this.protocolVersion = call.protocolVersion;
    this.clientCapabilities = call.clientCapabilities;
    this.clientInfo = request.clientInfo;
    this.transport = request.transport;
    this.signal = signal;
    this.notify = (notification) => {
      const taskId = scope.taskId;
      if (taskId === undefined) request.notify(notification);
      else progress.record(taskId, notification);
    };
    this.#request = request;
    this.#scope = scope;
    Object.freeze(this);
  }

  get progressToken(): string | number | undefined {
    return this.#scope.taskId ?? this.#request.progressToken;
  }

  get logLevel(): LoggingLevel | undefined {
    return this.#scope.taskId === undefined ? this.#request.logLevel : undefined;
  }
}
