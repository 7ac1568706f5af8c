import { McpInbound } from '../calls/mcp-inbound.js';
import { RequestExchange } from '../calls/request-exchange.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { TaskCallScope } from './task-call-scope.js';
import type { TaskProgressRecorder } from './task-progress-recorder.js';

/** What a task's call is, when it is not the request's own (a replay runs on a tasks/update). */
export type TaskExchangeCall = Pick<McpExchange, 'method' | 'params' | 'protocolVersion' | 'clientCapabilities'>;

/**
 * The exchange a task's handler sees (a `RequestExchange` like every other): the request's, with
 * `signal` in place of the request's, and notifications that go to the request until the call
 * becomes a task (the scope's `taskId` is defined), then to `progress`: no progress or log
 * notification is sent for a task, its progress becomes its `statusMessage`. From then on
 * `progressToken` is the task id and `logLevel` is undefined. `request` is the exchange the handler
 * runs in (the tools/call, or the tasks/update that resumes the task, then with the task's `call`).
 */
export function taskExchange(
  request: McpExchange,
  signal: AbortSignal,
  scope: TaskCallScope,
  progress: TaskProgressRecorder,
  call: TaskExchangeCall = request,
): McpExchange {
  const inbound = new McpInbound({
    transport: request.transport,
    signal: () => signal,
    notify: (notification) => {
      const taskId = scope.taskId;
      if (taskId === undefined) return request.notify(notification);
      progress.record(taskId, notification);
    },
  });
  const { id, clientInfo, logLevel, progressToken } = request;
  const { method, params, protocolVersion, clientCapabilities } = call;
  return new RequestExchange(
    { id, method, params, protocolVersion, clientCapabilities, clientInfo, logLevel, progressToken },
    inbound,
    scope,
  );
}
