import { type RedisServer, startRedis } from '../support/redis-server.js';
import { killNodes, type NodeProcess, startNode } from '../redis/redis-nodes.js';
import { call, result } from '../tasks/tasks-wire.js';

/**
 * The queue's give-up (`maxNodeLosses`) with real nodes: four child processes share one real
 * redis-server, each running one task handler at a time. A task whose node is SIGKILLed each time it
 * runs is taken by another node after each of its first `maxNodeLosses` losses, and fails with
 * -32603 after the next one, without running again, rather than going round the nodes forever.
 */

/** Not the default (5), nor BullMQ's own default (1): the option has to reach the queue's worker. */
const MAX_NODE_LOSSES = 2;
/** Short, so a killed node's job moves within seconds (about `lockMs` + 2 × `stalledCheckMs`). */
const QUEUE = { lockMs: 4000, stalledCheckMs: 1000, maxNodeLosses: MAX_NODE_LOSSES };
/** One node per run, and one left to see the task given up. */
const NODES = MAX_NODE_LOSSES + 2;

let redis: RedisServer;
let nodes: NodeProcess[] = [];

beforeAll(async () => {
  redis = await startRedis();
  nodes = await Promise.all(
    Array.from({ length: NODES }, (_, i) =>
      startNode({
        name: `node-${i + 1}`,
        redisUrl: redis.url,
        keyPrefix: 'losses-e2e:',
        rateLimit: 1_000_000,
        rateTtlMs: 60_000,
        flowClaimTtlMs: 3000,
        queueConcurrency: 1,
        queue: QUEUE,
      }),
    ),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await redis?.stop();
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const urlOf = (node: NodeProcess) => `http://127.0.0.1:${node.port}/mcp`;
/** The nodes that started a run of the task labelled `label` (its first step). */
const runnersOf = (label: string) => nodes.filter((n) => n.output().includes(`STEP ${label} 1 `));
/** What each node printed but its Nest LOG lines, its steps counted. */
const outputs = () =>
  nodes
    .map((n) => {
      const lines = n.output().split('\n');
      const steps = lines.filter((l) => l.startsWith('STEP ')).length;
      const rest = lines.filter((l) => !l.startsWith('STEP ') && !/ LOG /.test(l));
      return `${n.name} (${steps} steps):\n${rest.join('\n')}`;
    })
    .join('\n');

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | false>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${outputs()}`);
    await delay(100);
  }
}

async function taskOn(node: NodeProcess, taskId: string): Promise<any> {
  return result(await call(urlOf(node), 'tasks/get', { taskId }));
}

describe('@mocapi/nestjs/bullmq: a task that keeps losing its node', () => {
  it(`runs again after each of its first ${MAX_NODE_LOSSES} node losses, then fails with -32603 (the queue gave up) and runs no more`, async () => {
    const label = 'doomed';
    const created = result(
      await call(urlOf(nodes[0]!), 'tools/call', { name: 'steady_report', arguments: { label, steps: 100_000 } }),
    );
    expect(created.resultType).toBe('task');
    const { taskId } = created;
    const killed: NodeProcess[] = [];
    for (let loss = 1; loss <= MAX_NODE_LOSSES + 1; loss++) {
      // Run `loss` starts on a node that has not run the task before (a killed node is gone).
      const runner = await until(`run ${loss}`, () => runnersOf(label).find((n) => !killed.includes(n)), 40_000);
      expect(runnersOf(label)).toHaveLength(loss);
      const survivor = nodes.find((n) => n !== runner && !killed.includes(n))!;
      // Still working, with the progress of this run (its first step's may not be written yet).
      const running = await until(
        `progress of run ${loss}`,
        async () => {
          const task = await taskOn(survivor, taskId);
          return (task.status !== 'working' || task.statusMessage?.endsWith(` on ${runner.name}`)) && task;
        },
        10_000,
      );
      expect(running.status).toBe('working');
      expect(running.statusMessage).toMatch(new RegExp(`^Step \\d+ of 100000 on ${runner.name}$`));
      runner.child.kill('SIGKILL');
      killed.push(runner);
      await until(`${runner.name} gone`, () => !runner.alive(), 10_000);
    }
    const last = nodes.find((n) => !killed.includes(n))!;
    const deadline = Date.now() + 40_000;
    let task = await taskOn(last, taskId);
    while (task.status === 'working' && Date.now() < deadline) {
      await delay(250);
      task = await taskOn(last, taskId);
    }
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(task.error.message).toMatch(/^The task queue gave up on this task: job stalled more than/);
    // Given up, not run a fourth time: the node left (which took the job to fail it) ran no step.
    await delay(QUEUE.lockMs + 2 * QUEUE.stalledCheckMs);
    expect(runnersOf(label)).toHaveLength(MAX_NODE_LOSSES + 1);
    expect(last.output()).not.toContain(`STEP ${label} `);
    expect((await taskOn(last, taskId)).status).toBe('failed');
  }, 180_000);
});
