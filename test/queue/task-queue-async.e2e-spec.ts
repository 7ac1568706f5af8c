import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Redis } from 'ioredis';
import { McpRedisModule } from '../../src/redis/index.js';
import { McpTaskQueueModule } from '../../src/bullmq/index.js';
import { McpTaskQueueConnection } from '../../src/bullmq/task-queue-connection.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { ADAPTERS, startApp } from '../support/start-app.js';
import { TaskProbe, tasksModule } from '../tasks/tasks.fixtures.js';
import { call, eventually, pollUntil, result } from '../tasks/tasks-wire.js';

// McpTaskQueueModule.forRootAsync as applications set it up: options from @nestjs/config's
// ConfigService (useFactory + inject), or the application's own ioredis client from a provider of
// one of its modules. A task runs through the queue so configured, against a real redis-server:
// BullMQ's event stream under the prefix and queue name the factory returned shows its job.

let redis: RedisServer;
/** The test's own connection, to read what the queue wrote. */
let observer: Redis;
let apps = 0;

beforeAll(async () => {
  Logger.overrideLogger(false);
  redis = await startRedis();
  observer = new Redis(redis.url);
});
afterAll(async () => {
  observer.disconnect();
  await redis.stop();
});

/** The application's own Redis client (BullMQ needs `maxRetriesPerRequest: null` on it). */
const APP_REDIS = Symbol('APP_REDIS');

@Module({})
class AsyncQueueApp {}

/** The tasks app with a store on Redis and the given queue module. */
function appWith(keyPrefix: string, queue: DynamicModule, imports: DynamicModule[] = []): DynamicModule {
  return {
    module: AsyncQueueApp,
    imports: [...imports, tasksModule(), McpRedisModule.forRoot({ connection: redis.url, keyPrefix }), queue],
  };
}

/**
 * The events BullMQ recorded for `jobId` in the stream of `prefix`:`queueName`, once the job has
 * ended there (`completed` or `failed`; at most 5 s). The task's own record says `completed` when
 * the handler's result is stored, a moment before the worker moves the job to completed.
 */
async function jobEvents(prefix: string, queueName: string, jobId: string): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const entries = await observer.xrange(`${prefix}:${queueName}:events`, '-', '+');
    const events = entries
      .map(([, fields]) => Object.fromEntries(fields.flatMap((_, i) => (i % 2 ? [] : [[fields[i], fields[i + 1]]]))))
      .filter((event) => event['jobId'] === jobId)
      .map((event) => event['event']!);
    if (events.includes('completed') || events.includes('failed') || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(ADAPTERS)('McpTaskQueueModule.forRootAsync (%s)', (adapter) => {
  /** Runs a build_report task on the app to completion; returns its id. */
  async function runTask(url: string, probe: TaskProbe, label: string): Promise<string> {
    const created = result(await call(url, 'tools/call', { name: 'build_report', arguments: { label } }));
    expect(created.resultType).toBe('task');
    await eventually(() => probe.gates.has(label));
    probe.gate(label).release();
    const done = await pollUntil(url, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: `Report ${label} is ready` }]);
    return created.taskId;
  }

  it('useFactory + inject: ConfigService: the task runs on the queue the configuration names', async () => {
    const n = apps++;
    const settings = {
      REDIS_URL: redis.url,
      TASK_QUEUE: `configured-${n}`,
      TASK_QUEUE_PREFIX: `cfg-${adapter}`,
      TASK_QUEUE_CONCURRENCY: 2,
    };
    const queue = McpTaskQueueModule.forRootAsync({
      imports: [ConfigModule.forRoot({ ignoreEnvFile: true, load: [() => settings] })],
      inject: [ConfigService],
      useFactory: async (config: ConfigService) => ({
        connection: config.getOrThrow<string>('REDIS_URL'),
        queueName: config.getOrThrow<string>('TASK_QUEUE'),
        prefix: config.getOrThrow<string>('TASK_QUEUE_PREFIX'),
        concurrency: config.getOrThrow<number>('TASK_QUEUE_CONCURRENCY'),
      }),
    });
    const app = await startApp(appWith(`async-config-${adapter}-${n}:`, queue), adapter);
    try {
      // A started application's queue is connected (its health probe says up from the first request).
      expect(app.app.get(McpTaskQueueConnection, { strict: false }).redis.status).toBe('ready');
      const taskId = await runTask(app.url, app.app.get(TaskProbe, { strict: false }), `config-${adapter}`);
      const events = await jobEvents(settings.TASK_QUEUE_PREFIX, settings.TASK_QUEUE, `${taskId}.0`);
      expect(events).toEqual(expect.arrayContaining(['added', 'active', 'completed']));
    } finally {
      await app.close();
    }
  });

  it("useFactory + inject: the application's own client from a provider: the task runs on it, and the client stays open", async () => {
    const n = apps++;
    const own = new Redis(redis.url, { maxRetriesPerRequest: null });
    @Module({ providers: [{ provide: APP_REDIS, useValue: own }], exports: [APP_REDIS] })
    class AppRedisModule {}
    const queueName = `own-client-${n}`;
    const queue = McpTaskQueueModule.forRootAsync({
      imports: [AppRedisModule],
      inject: [APP_REDIS],
      useFactory: (client: Redis) => ({ client, queueName }),
    });
    const app = await startApp(appWith(`async-client-${adapter}-${n}:`, queue), adapter);
    let closed = false;
    try {
      const taskId = await runTask(app.url, app.app.get(TaskProbe, { strict: false }), `client-${adapter}`);
      expect(await jobEvents('bull', queueName, `${taskId}.0`)).toEqual(
        expect.arrayContaining(['added', 'active', 'completed']),
      );
      await app.close();
      closed = true;
      // The module leaves a client it was given open.
      expect(own.status).toBe('ready');
      expect(await own.ping()).toBe('PONG');
    } finally {
      if (!closed) await app.close();
      own.disconnect();
    }
  });
});
