import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { TaskCallScope } from './task-call-scope.js';
import { taskExchange } from './task-exchange.js';
import type { TaskProgressRecorder } from './task-progress-recorder.js';

function request(sent: JsonRpcNotification[]): McpExchange {
  return {
    id: 7,
    method: 'tools/call',
    params: { name: 'deploy', arguments: { env: 'prod' } },
    protocolVersion: '2026-07-28',
    clientCapabilities: { elicitation: {} },
    clientInfo: { name: 'client', version: '1.0.0' },
    logLevel: 'info',
    progressToken: 'p-1',
    transport: { kind: 'stdio' },
    signal: new AbortController().signal,
    notify: (notification) => void sent.push(notification),
  };
}

/** A scope whose task id the test sets, as `McpTaskContext.start()` would. */
class Scope implements TaskCallScope {
  taskId: string | undefined;
  async start(): Promise<void> {}
}

function recorder(recorded: [string, JsonRpcNotification][]): TaskProgressRecorder {
  return {
    record: (taskId: string, n: JsonRpcNotification) => void recorded.push([taskId, n]),
  } as TaskProgressRecorder;
}

const progress = (n: number): JsonRpcNotification => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 'p-1', progress: n },
});

describe('taskExchange', () => {
  it('is the request with the task signal; notifications go to the request until the call is a task, then to its progress', () => {
    const sent: JsonRpcNotification[] = [];
    const recorded: [string, JsonRpcNotification][] = [];
    const base = request(sent);
    const signal = new AbortController().signal;
    const scope = new Scope();
    const exchange = taskExchange(base, signal, scope, recorder(recorded));

    expect(exchange).toMatchObject({
      id: 7,
      method: 'tools/call',
      params: base.params,
      protocolVersion: '2026-07-28',
      clientCapabilities: base.clientCapabilities,
      clientInfo: base.clientInfo,
      transport: base.transport,
    });
    expect(exchange.signal).toBe(signal);
    expect(exchange.progressToken).toBe('p-1');
    expect(exchange.logLevel).toBe('info');
    exchange.notify(progress(1));
    expect(sent).toEqual([progress(1)]);

    scope.taskId = 'task-1';
    expect(exchange.progressToken).toBe('task-1');
    expect(exchange.logLevel).toBeUndefined();
    // Passed on unbound, as handlers may do with the request's own notify.
    const { notify } = exchange;
    notify(progress(2));
    expect(sent).toEqual([progress(1)]);
    expect(recorded).toEqual([['task-1', progress(2)]]);
  });

  it('runs a replay as the task call, on the transport of the request that resumed it', () => {
    const base = request([]);
    const scope = new Scope();
    scope.taskId = 'task-1';
    const call = {
      method: 'tools/call',
      params: { name: 'deploy', arguments: { env: 'staging' } },
      protocolVersion: '2026-07-28',
      clientCapabilities: { sampling: {} },
    };
    const exchange = taskExchange({ ...base, method: 'tasks/update', id: 9 }, base.signal, scope, recorder([]), call);
    expect(exchange).toMatchObject({ ...call, id: 9, transport: base.transport, progressToken: 'task-1' });
    expect(exchange.logLevel).toBeUndefined();
  });

  it('is frozen, and every one has the same shape', () => {
    const a = taskExchange(request([]), new AbortController().signal, new Scope(), recorder([]));
    const { clientInfo: _info, logLevel: _level, progressToken: _token, ...bare } = request([]);
    const b = taskExchange(bare as McpExchange, new AbortController().signal, new Scope(), recorder([]));
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => ((a as { method: string }).method = 'x')).toThrow(TypeError);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(b.progressToken).toBeUndefined();
  });
});
