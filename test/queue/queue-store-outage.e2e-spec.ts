import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { McpTaskQueueModule } from '../../src/bullmq/index.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { type RunningApp, startApp } from '../support/start-app.js';
import { TaskProbe, tasksModule } from '../tasks/tasks.fixtures.js';
import { call, eventually, pollUntil, result } from '../tasks/tasks-wire.js';

// A queued task whose handler ends while the task store does not answer (a Redis failing over,
// frozen here with SIGSTOP): its ending cannot be written, so the queue runs the task again once
// the store is back, and the task completes instead of staying `working` until it expires. The
// store and the queue are on two redis-servers, so only the store is away.

let store: RedisServer;
let queue: RedisServer;
let server: RunningApp;
let probe: TaskProbe;

@Module({})
class OutageApp {}

beforeAll(async () => {
  Logger.overrideLogger(false);
  [store, queue] = await Promise.all([startRedis(), startRedis()]);
  const app: DynamicModule = {
    module: OutageApp,
    imports: [
      tasksModule(),
      McpRedisModule.forRoot({ connection: store.url, keyPrefix: 'outage:', commandTimeoutMs: 500 }),
      McpTaskQueueModule.forRoot({ connection: queue.url, queueName: 'outage' }),
    ],
  };
  server = await startApp(app, 'express');
  probe = server.app.get(TaskProbe, { strict: false });
});
afterAll(async () => {
  await server?.close();
  await Promise.all([store?.stop(), queue?.stop()]);
});

it('a handler that ends while the store is away is run again once it is back, and its task completes', async () => {
  const created = result(await call(server.url, 'tools/call', { name: 'build_report', arguments: { label: 'away' } }));
  expect(created.resultType).toBe('task');
  await eventually(() => probe.gates.has('away'));
  store.pause();
  try {
    probe.gate('away').release();
    // The ending's write waits commandTimeoutMs (500 ms) for the frozen store, then is given up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  } finally {
    store.resume();
  }
  const done = await pollUntil(server.url, created.taskId, (task) => task.status === 'completed');
  expect(done.result.content).toEqual([{ type: 'text', text: 'Report away is ready' }]);
});
