import { McpTaskStore } from '../../src/index.js';
import { InMemoryTaskStore } from '../../src/task-store/in-memory-task.store.js';
import { InProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { SystemClock } from '../../src/core/mcp-clock.js';
import { ADAPTERS, type AdapterKind, type RunningApp, startApp } from '../support/start-app.js';
import { TaskProbe, tasksModule } from './tasks.fixtures.js';
import { call, eventually, pollUntil, result, WITH_ELICITATION } from './tasks-wire.js';

// Two real applications (nodes) bound to one McpTaskStore instance through the `taskStore` option:
// what a shared store (Redis, from its own module) gives a deployment. No Redis here; the point is
// which node does what when the store is shared.
describe.each(ADAPTERS)('Two nodes sharing one McpTaskStore, on %s', (adapter: AdapterKind) => {
  let store: InMemoryTaskStore;
  let nodeA: RunningApp;
  let nodeB: RunningApp;
  beforeAll(async () => {
    store = new InMemoryTaskStore(new SystemClock());
    nodeA = await startApp(tasksModule(undefined, { taskStore: store }), adapter);
    nodeB = await startApp(tasksModule(undefined, { taskStore: store }), adapter);
  });
  afterAll(async () => {
    await nodeA.close();
    await nodeB.close();
  });

  it('binds the application’s own store (it wins over the default)', () => {
    expect(nodeA.app.get(McpTaskStore)).toBe(store);
    expect(nodeB.app.get(McpTaskStore)).toBe(store);
  });

  it('a task started on node A is polled on node B, and node B’s tasks/update resumes it there by replay', async () => {
    const created = result(
      await call(nodeA.url, 'tools/call', { name: 'two_questions' }, { capabilities: WITH_ELICITATION }),
    );
    const asked = await pollUntil(nodeB.url, created.taskId, (t) => t.status === 'input_required');
    expect(Object.keys(asked.inputRequests)).toEqual(['elicit-1']);

    const runsOnA = nodeA.app.get(TaskProbe).runs;
    const runsOnB = nodeB.app.get(TaskProbe).runs;
    await call(nodeB.url, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Lin' } } },
    });
    await pollUntil(nodeA.url, created.taskId, (t) => t.status === 'input_required' && 'elicit-2' in t.inputRequests);
    await call(nodeA.url, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { 'elicit-2': { action: 'accept', content: { confirm: true } } },
    });
    const done = await pollUntil(nodeB.url, created.taskId, (t) => t.status === 'completed');
    expect(done.result.content[0].text).toBe('Deployed by Lin');
    // Each replay ran on the node that took the last answer of its round.
    expect(nodeB.app.get(TaskProbe).runs - runsOnB).toBe(1);
    expect(nodeA.app.get(TaskProbe).runs - runsOnA).toBe(1);
  });

  it('a task cancelled on node B is cancelled for everyone; only node A, which runs it, can abort its handler', async () => {
    const created = result(await call(nodeA.url, 'tools/call', { name: 'long_job', arguments: { label: 'shared' } }));
    await call(nodeB.url, 'tasks/cancel', { taskId: created.taskId });
    expect(result(await call(nodeA.url, 'tasks/get', { taskId: created.taskId })).status).toBe('cancelled');
    expect(nodeA.app.get(TaskProbe).aborted.has('shared')).toBe(false);
    // The principal rule holds across nodes too.
    expect((await call(nodeB.url, 'tasks/get', { taskId: created.taskId }, { user: 'bob' })).json.error.code).toBe(
      -32602,
    );
    await call(nodeA.url, 'tasks/cancel', { taskId: created.taskId });
    expect(nodeA.app.get(TaskProbe).aborted.get('shared')).toBe('The task was cancelled');
  });
});

// The same two nodes, now also sharing one McpEventBus (what McpRedisModule's bus gives across
// processes): the node running a task hears that another node cancelled it.
describe.each(ADAPTERS)('Two nodes sharing a task store and an event bus, on %s', (adapter: AdapterKind) => {
  let nodeA: RunningApp;
  let nodeB: RunningApp;
  beforeAll(async () => {
    const shared = { taskStore: new InMemoryTaskStore(new SystemClock()), eventBus: new InProcessEventBus() };
    nodeA = await startApp(tasksModule(undefined, shared), adapter);
    nodeB = await startApp(tasksModule(undefined, shared), adapter);
  });
  afterAll(async () => {
    await nodeA.close();
    await nodeB.close();
  });

  it('a tasks/cancel served by node B aborts the handler running on node A', async () => {
    const probe = nodeA.app.get(TaskProbe);
    const created = result(await call(nodeA.url, 'tools/call', { name: 'long_job', arguments: { label: 'bus' } }));
    await eventually(() => probe.started.has('bus'));
    await call(nodeB.url, 'tasks/cancel', { taskId: created.taskId });
    await eventually(() => probe.aborted.has('bus'));
    expect(probe.aborted.get('bus')).toBe('The task was cancelled');
    expect(result(await call(nodeA.url, 'tasks/get', { taskId: created.taskId })).status).toBe('cancelled');
  });
});
