import { Injectable, Logger, Module, type DynamicModule } from '@nestjs/common';
import { McpTaskExecutor, type McpTaskStore, McpTool } from '../../src/index.js';
import { InProcessTaskExecutor } from '../../src/tasks/mcp-task-executor.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { McpTaskQueueModule, type McpTaskQueueOptions } from '../../src/bullmq/index.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import { TaskProbe, tasksModule } from '../tasks/tasks.fixtures.js';
import { call, eventually, newId, pollUntil, result, WITH_ELICITATION } from '../tasks/tasks-wire.js';

// Two applications ("nodes") in this process share one real redis-server: its task store and one
// BullMQ queue, so either node's worker may take a task the other created.

let redis: RedisServer;
let queues = 0;

beforeAll(async () => {
  Logger.overrideLogger(false);
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

/** How often each label's handler ran (both nodes are in this process). */
const flakyRuns = new Map<string, number>();

/** Handlers that throw on their first runs. */
@Injectable()
class FlakyTools {
  @McpTool({
    name: 'flaky_import',
    description: 'Throws on its first two runs (retried: the queue options opt it in)',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'required',
  })
  flakyImport(args: { label: string }): string {
    return this.runOrThrow(args.label, 2);
  }

  @McpTool({
    name: 'flaky_export',
    description: 'Throws on its first run (not retried)',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'required',
  })
  flakyExport(args: { label: string }): string {
    return this.runOrThrow(args.label, 1);
  }

  private runOrThrow(label: string, failures: number): string {
    const run = (flakyRuns.get(label) ?? 0) + 1;
    flakyRuns.set(label, run);
    if (run <= failures) throw new Error(`run ${run} of ${label} failed`);
    return `${label} succeeded on run ${run}`;
  }
}

@Module({})
class QueueNode {}

/** An application's own executor: runs in process, and says which tasks it was given. */
class CountingExecutor extends InProcessTaskExecutor {
  readonly submitted: string[] = [];
  override async submit(task: McpTaskStore.TaskRecord, runHere: () => void): Promise<void> {
    this.submitted.push(task.taskId);
    await super.submit(task, runHere);
  }
}

function queueNode(
  keyPrefix: string,
  queue: Partial<McpTaskQueueOptions>,
  taskExecutor?: McpTaskExecutor,
): DynamicModule {
  return {
    module: QueueNode,
    providers: [FlakyTools],
    imports: [
      tasksModule(undefined, taskExecutor ? { taskExecutor } : {}),
      McpRedisModule.forRoot({ connection: redis.url, keyPrefix }),
      McpTaskQueueModule.forRoot({ connection: redis.url, queueName: keyPrefix.replace(/:$/, ''), ...queue }),
    ],
  };
}

describe.each(ADAPTERS)('tasks on a BullMQ queue (%s)', (adapter) => {
  const apps: RunningApp[] = [];
  const start = async (keyPrefix: string, queue: Partial<McpTaskQueueOptions> = {}, executor?: McpTaskExecutor) => {
    const app = await startApp(queueNode(keyPrefix, queue, executor), adapter);
    apps.push(app);
    return { ...app, probe: app.app.get(TaskProbe, { strict: false }) };
  };
  const prefix = () => `queue-${adapter}-${queues++}:`;
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close().catch(() => undefined);
  });

  it('runs a task created on one node as a job, completes it and keeps its result in the 2026-07-28 shape', async () => {
    const p = prefix();
    const a = await start(p);
    const created = result(await call(a.url, 'tools/call', { name: 'build_report', arguments: { label: 'q1' } }));
    expect(created.resultType).toBe('task');
    await eventually(() => a.probe.gates.has('q1'));
    a.probe.gate('q1').release();
    const done = await pollUntil(a.url, created.taskId, (task) => task.status === 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Report q1 is ready' }], resultType: 'complete' });
    expect(done.statusMessage).toBe('Completed');
  });

  it('parks a task that asks for input, and runs it again from the queue once tasks/update answers', async () => {
    const a = await start(prefix());
    const options = { capabilities: WITH_ELICITATION };
    const created = result(await call(a.url, 'tools/call', { name: 'two_questions', arguments: {} }, options));
    const asked = await pollUntil(a.url, created.taskId, (task) => task.status === 'input_required');
    const [nameKey] = Object.keys(asked.inputRequests);
    await call(
      a.url,
      'tasks/update',
      { taskId: created.taskId, inputResponses: { [nameKey!]: { action: 'accept', content: { name: 'Ada' } } } },
      options,
    );
    const again = await pollUntil(
      a.url,
      created.taskId,
      (task) => task.status === 'input_required' && !(nameKey! in task.inputRequests),
    );
    const [confirmKey] = Object.keys(again.inputRequests);
    await call(
      a.url,
      'tasks/update',
      { taskId: created.taskId, inputResponses: { [confirmKey!]: { action: 'accept', content: { confirm: true } } } },
      options,
    );
    const done = await pollUntil(a.url, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Deployed by Ada' }]);
    expect(a.probe.runs).toBe(3);
  });

  it('hands a running task back when its node shuts down; another node runs it from the top and completes it', async () => {
    const p = prefix();
    const a = await start(p, { concurrency: 1 });
    const created = result(await call(a.url, 'tools/call', { name: 'build_report', arguments: { label: 'moved' } }));
    await eventually(() => a.probe.gates.has('moved'));
    const b = await start(p);
    const closing = Date.now();
    await a.close();
    const closed = Date.now();
    expect(closed - closing).toBeLessThan(10_000);
    await eventually(() => b.probe.gates.has('moved'));
    b.probe.gate('moved').release();
    const done = await pollUntil(b.url, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Report moved is ready' }]);
  });

  it('cancels a waiting job before it runs, and aborts a running handler from another node', async () => {
    const p = prefix();
    const a = await start(p, { concurrency: 1 });
    const b = await start(p, { concurrency: 1 });
    const first = result(await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'l1' } }));
    const second = result(await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'l2' } }));
    await eventually(
      () => [a, b].some((n) => n.probe.started.has('l1')) && [a, b].some((n) => n.probe.started.has('l2')),
    );
    const third = result(await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'l3' } }));
    result(await call(b.url, 'tasks/cancel', { taskId: third.taskId }));
    const runner = [a, b].find((n) => n.probe.started.has('l1'))!;
    const other = runner === a ? b : a;
    expect(result(await call(other.url, 'tasks/cancel', { taskId: first.taskId })).resultType).toBe('complete');
    expect(result(await call(other.url, 'tasks/get', { taskId: first.taskId })).status).toBe('cancelled');
    await eventually(() => runner.probe.aborted.has('l1'));
    // The freed worker does not take the cancelled task's job.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.probe.started.has('l3') || b.probe.started.has('l3')).toBe(false);
    expect(result(await call(a.url, 'tasks/get', { taskId: third.taskId })).status).toBe('cancelled');
    result(await call(a.url, 'tasks/cancel', { taskId: second.taskId }));
  });

  it("binds the application's own taskExecutor ahead of the queue module's", async () => {
    const own = new CountingExecutor();
    const a = await start(prefix(), {}, own);
    expect(a.app.get(McpTaskExecutor, { strict: false })).toBe(own);
    const created = result(
      await call(a.url, 'tools/call', { name: 'flaky_export', arguments: { label: `own-${adapter}` } }),
    );
    await pollUntil(a.url, created.taskId, (task) => task.status === 'completed');
    expect(own.submitted).toEqual([created.taskId]);
  });

  it('tries a throwing handler again with backoff only for a tool that opts in (retries)', async () => {
    const a = await start(prefix(), { retries: { flaky_import: { attempts: 3, backoffMs: 50 } } });
    const label = `import-${adapter}`;
    const retried = result(await call(a.url, 'tools/call', { name: 'flaky_import', arguments: { label } }));
    const done = await pollUntil(a.url, retried.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: `${label} succeeded on run 3` }]);
    expect(done.result.isError).toBeUndefined();
    const once = `export-${adapter}`;
    const single = result(await call(a.url, 'tools/call', { name: 'flaky_export', arguments: { label: once } }));
    const ended = await pollUntil(a.url, single.taskId, (task) => task.status === 'completed');
    expect(ended.result).toMatchObject({ isError: true, content: [{ type: 'text', text: `run 1 of ${once} failed` }] });
    expect(flakyRuns.get(once)).toBe(1);
  });

  it('runs at most toolConcurrency handlers of a tool at once on a node, the others waiting', async () => {
    const a = await start(prefix(), { concurrency: 4, toolConcurrency: { long_job: 1 } });
    const first = result(await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'c1' } }));
    const second = result(await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'c2' } }));
    await eventually(() => a.probe.started.size > 0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(a.probe.started.size).toBe(1);
    const [running, waiting] = a.probe.started.has('c1') ? [first, 'c2'] : [second, 'c1'];
    result(await call(a.url, 'tasks/cancel', { taskId: running.taskId }));
    await eventually(() => a.probe.started.has(waiting));
    result(await call(a.url, 'tasks/cancel', { taskId: (waiting === 'c2' ? second : first).taskId }));
  });

  it('refuses a task call with -32051 and 503 once maxQueuedTasks wait, and keeps that task failed', async () => {
    const a = await start(prefix(), { concurrency: 1, maxQueuedTasks: 1 });
    result(await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'f1' } }));
    await eventually(() => a.probe.started.has('f1'));
    result(await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'f2' } }));
    const id = newId() + 1;
    const refused = await call(a.url, 'tools/call', { name: 'long_job', arguments: { label: 'f3' } });
    expect(refused.status).toBe(503);
    expect(refused.json.id).toBe(id);
    expect(refused.json.error).toMatchObject({ code: -32051, data: { maxQueuedTasks: 1 } });
    expect(refused.headers['retry-after']).toBe('1');
  });
});
