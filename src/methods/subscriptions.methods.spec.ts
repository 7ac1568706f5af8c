import { InProcessEventBus } from '../events/in-process-event-bus.js';
import { resolveMcpOptions } from '../mcp.options.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { TaskStatusSubscriptions } from '../tasks/task-status-subscriptions.js';
import { SubscriptionsMethods } from './subscriptions.methods.js';

const options = resolveMcpOptions({ name: 't', version: '1' });
/** The filter asks for no task ids here, so the task part is never consulted. */
const noTasks = { subscribe: async () => undefined } as unknown as TaskStatusSubscriptions;

function exchange(signal: AbortSignal, sent: JsonRpcNotification[]): McpExchange {
  return {
    id: 'listen-1',
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true } },
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
    transport: { kind: 'stdio' },
    signal,
    notify: (notification) => void sent.push(notification),
  };
}

describe('SubscriptionsMethods (subscriptions/listen)', () => {
  const listen = (methods: SubscriptionsMethods, ex: McpExchange) =>
    methods.methods['subscriptions/listen']!(ex, undefined as never) as Promise<Record<string, unknown>>;

  it('ends at once, without staying subscribed, when the client was gone before the stream was set up', async () => {
    const bus = new InProcessEventBus();
    const methods = new SubscriptionsMethods(options.limits, bus, noTasks);
    const abort = new AbortController();
    abort.abort(new Error('gone'));
    const ended = await Promise.race([
      listen(methods, exchange(abort.signal, [])).then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 200)),
    ]);
    expect(ended).toBe('ended');
    expect(bus.size).toBe(0);
  });

  it('stays subscribed until the signal aborts, then unsubscribes and completes', async () => {
    const bus = new InProcessEventBus();
    const methods = new SubscriptionsMethods(options.limits, bus, noTasks);
    const abort = new AbortController();
    const sent: JsonRpcNotification[] = [];
    const result = listen(methods, exchange(abort.signal, sent));
    await new Promise((resolve) => setImmediate(resolve));
    expect(bus.size).toBe(1);
    bus.publish({ kind: 'list_changed', list: 'tools' });
    expect(sent.map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
    ]);
    abort.abort(new Error('gone'));
    await result;
    expect(bus.size).toBe(0);
  });
});
