import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import { McpModule, McpTaskContext, McpTool, type McpLimitsOptions, type McpTasksOptions } from '../../src/index.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { AppHeaderPrincipalSource } from '../mrtr/principal.fixtures.js';
import { envelope, mcpHeaders, post, type RawResponse } from '../support/raw-mcp.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { pollUntil, result, TASKS } from '../tasks/tasks-wire.js';

// One caller must not take every task slot. Every test client is 127.0.0.1, so callers are told
// apart by the principal (the x-user header, AppHeaderPrincipalSource): no header is the anonymous
// caller, counted by its client address; `bob` is another caller.

const ANONYMOUS = '';
const STACK = /\n\s+at\s|node_modules|\.ts:\d+/;

/** Gates the test opens, by label. */
@Injectable()
class Gates {
  private readonly open = new Map<string, () => void>();
  private readonly gates = new Map<string, Promise<void>>();

  wait(label: string): Promise<void> {
    let gate = this.gates.get(label);
    if (!gate) this.gates.set(label, (gate = new Promise((resolve) => this.open.set(label, resolve))));
    return gate;
  }

  release(label: string): void {
    void this.wait(label);
    this.open.get(label)!();
  }
}

@Injectable()
class QuotaTools {
  constructor(
    private readonly gates: Gates,
    private readonly task: McpTaskContext,
  ) {}

  @McpTool({
    name: 'staged',
    description: 'Starts its task from the handler',
    taskSupport: 'required',
    taskCreation: 'handler',
  })
  async staged(): Promise<string> {
    await this.task.start();
    return 'staged';
  }

  @McpTool({ name: 'hold', description: 'Runs until the test releases its label', taskSupport: 'required' })
  async hold(args: { label: string }): Promise<string> {
    await this.gates.wait(args.label);
    return `released ${args.label}`;
  }

  @McpTool({ name: 'quick', description: 'Finishes at once, whatever its arguments', taskSupport: 'required' })
  quick(): string {
    return 'done';
  }

  @McpTool({ name: 'big_result', description: 'Answers `bytes` characters', taskSupport: 'required' })
  bigResult(args: { bytes: number }): string {
    return 'x'.repeat(args.bytes);
  }
}

const LIMITS: McpLimitsOptions = {
  maxRunningTasksPerCaller: 5,
  maxStoredTasksPerCaller: 8,
  maxTaskPayloadBytes: 65_536,
};

function quotaModule(tasks: McpTasksOptions, redis?: { url: string; keyPrefix: string }): DynamicModule {
  @Module({
    imports: [
      ...(redis ? [McpRedisModule.forRoot({ connection: redis.url, keyPrefix: redis.keyPrefix })] : []),
      McpModule.forRoot({
        name: 'task-quotas',
        version: '1.0.0',
        mrtr: { secrets: ['task-quotas-secret-0123456789abcdef0123456789'] },
        principalSource: AppHeaderPrincipalSource,
        tasks,
        limits: LIMITS,
      }),
    ],
    providers: [Gates, QuotaTools],
  })
  class QuotaModule {}
  return { module: QuotaModule };
}

let nextId = 9000;

/** A task call as `user` (no x-user value: anonymous); the answer must carry the id it went with. */
async function startTask(url: string, name: string, args: Record<string, unknown>, user: string) {
  const id = nextId++;
  const params = { name, arguments: args, _meta: envelope(TASKS) };
  const response = await post(
    url,
    { jsonrpc: '2.0', id, method: 'tools/call', params },
    {
      ...mcpHeaders('tools/call', name),
      ...(user !== ANONYMOUS && { 'x-user': user }),
    },
  );
  expect(response.json?.id).toBe(id);
  return response;
}

function expectQuotaError(response: RawResponse, limit: string, maxRetryAfterS: number): number {
  expect(response.status).toBe(429);
  expect(response.json.error).toEqual({
    code: -32050,
    message: expect.stringContaining(`limits.${limit}`),
    data: { retryAfterMs: expect.any(Number), limit },
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfterS);
  expect(response.text).not.toMatch(STACK);
  return response.json.error.data.retryAfterMs;
}

describe.each(ADAPTERS)('per-caller task quotas, on %s', (adapter) => {
  const logger = new CapturingLogger();
  let running: RunningApp;
  let expiring: RunningApp;
  beforeAll(async () => {
    running = await startMrtrApp(quotaModule({ ttlMs: 60_000, pollIntervalMs: 50 }), adapter, { logger });
    // Short-lived tasks, so the stored quota frees up within the test.
    expiring = await startMrtrApp(quotaModule({ ttlMs: 1500, pollIntervalMs: 50 }), adapter, { logger });
  });
  afterAll(async () => {
    await running.close();
    await expiring.close();
  });
  afterEach(() => {
    expect(logger.errors).toEqual([]);
    for (const line of logger.warnings) expect(line).not.toMatch(STACK);
  });

  it('holds one caller to maxRunningTasksPerCaller (429, Retry-After, its id); another caller still gets tasks; finished tasks free the quota', async () => {
    const url = running.url;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(result(await startTask(url, 'hold', { label: `run-${i}` }, ANONYMOUS)).taskId);
    }
    const refused = await startTask(url, 'hold', { label: 'run-5' }, ANONYMOUS);
    expectQuotaError(refused, 'maxRunningTasksPerCaller', 1);

    // A tool that starts its task from its handler meets the same quota when it calls start().
    expectQuotaError(await startTask(url, 'staged', {}, ANONYMOUS), 'maxRunningTasksPerCaller', 1);

    const other = result(await startTask(url, 'hold', { label: 'bob-0' }, 'bob'));
    expect(other).toMatchObject({ resultType: 'task', status: 'working' });

    const gates = running.app.get(Gates);
    for (let i = 0; i < 5; i++) gates.release(`run-${i}`);
    for (const taskId of ids) await pollUntil(url, taskId, (t) => t.status === 'completed', ANONYMOUS);
    const again = result(await startTask(url, 'hold', { label: 'run-6' }, ANONYMOUS));
    expect(again.status).toBe('working');
    gates.release('run-6');
    gates.release('bob-0');
  });

  it('holds one caller to maxStoredTasksPerCaller until its oldest finished task expires (Retry-After says when)', async () => {
    const url = expiring.url;
    for (let i = 0; i < 8; i++) {
      const created = result(await startTask(url, 'quick', {}, 'carol'));
      await pollUntil(url, created.taskId, (t) => t.status === 'completed', 'carol');
    }
    const refused = await startTask(url, 'quick', {}, 'carol');
    const retryAfterMs = expectQuotaError(refused, 'maxStoredTasksPerCaller', 2);
    expect(retryAfterMs).toBeLessThanOrEqual(1500);

    expect(result(await startTask(url, 'quick', {}, 'bob')).resultType).toBe('task');

    await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 50));
    expect(result(await startTask(url, 'quick', {}, 'carol')).resultType).toBe('task');
  });

  it('refuses task arguments over maxTaskPayloadBytes with -32602 (400) and the request id; nothing is stored', async () => {
    const refused = await startTask(running.url, 'quick', { blob: 'x'.repeat(70_000) }, 'dave');
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      error: {
        code: -32602,
        message: expect.stringContaining('limits.maxTaskPayloadBytes'),
        data: { limit: 'maxTaskPayloadBytes', maxBytes: 65_536 },
      },
    });
    // Just under the bound is fine.
    expect(result(await startTask(running.url, 'quick', { blob: 'x'.repeat(60_000) }, 'dave')).resultType).toBe('task');
  });

  it('fails a task whose result is over maxTaskPayloadBytes instead of keeping it', async () => {
    const created = result(await startTask(running.url, 'big_result', { bytes: 100_000 }, 'erin'));
    const failed = await pollUntil(running.url, created.taskId, (t) => t.status !== 'working', 'erin');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, data: { limit: 'maxTaskPayloadBytes', maxBytes: 65_536 } },
    });
    expect(failed.error.message).toContain('limits.maxTaskPayloadBytes');
    expect(JSON.stringify(failed).length).toBeLessThan(2000);
    expect(logger.warnings.some((line) => line.includes('limits.maxTaskPayloadBytes'))).toBe(true);
  });
});

// The same quota with the Redis task store, two nodes sharing it: the count is per caller over all nodes.
describe.each(ADAPTERS)('per-caller task quotas on two nodes sharing Redis, on %s', (adapter) => {
  const logger = new CapturingLogger();
  let redis: RedisServer;
  let nodeA: RunningApp;
  let nodeB: RunningApp;
  beforeAll(async () => {
    redis = await startRedis();
    const shared = { url: redis.url, keyPrefix: `quota-${adapter}:` };
    nodeA = await startMrtrApp(quotaModule({ ttlMs: 60_000, pollIntervalMs: 50 }, shared), adapter, { logger });
    nodeB = await startMrtrApp(quotaModule({ ttlMs: 60_000, pollIntervalMs: 50 }, shared), adapter, { logger });
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await redis?.stop();
  });

  it('one caller fills its running quota across both nodes; the next call on either is refused; another caller is served; finishing frees it', async () => {
    const started: { node: RunningApp; taskId: string; label: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const node = i % 2 ? nodeB : nodeA;
      const label = `redis-${i}`;
      started.push({ node, label, taskId: result(await startTask(node.url, 'hold', { label }, ANONYMOUS)).taskId });
    }
    expectQuotaError(
      await startTask(nodeA.url, 'hold', { label: 'redis-x' }, ANONYMOUS),
      'maxRunningTasksPerCaller',
      1,
    );
    expectQuotaError(
      await startTask(nodeB.url, 'hold', { label: 'redis-y' }, ANONYMOUS),
      'maxRunningTasksPerCaller',
      1,
    );
    const other = result(await startTask(nodeB.url, 'quick', {}, 'bob'));
    expect(other.status).toBe('working');

    for (const { node, label } of started) node.app.get(Gates).release(label);
    for (const { taskId } of started) await pollUntil(nodeB.url, taskId, (t) => t.status === 'completed', ANONYMOUS);
    expect(result(await startTask(nodeB.url, 'quick', {}, ANONYMOUS)).resultType).toBe('task');
    expect(logger.errors).toEqual([]);
  });
});
