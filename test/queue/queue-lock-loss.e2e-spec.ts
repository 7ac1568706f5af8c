import { rmSync, writeFileSync } from 'node:fs';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { stallFiles } from '../redis/redis-node.module.js';
import { killNodes, type NodeProcess, startNode } from '../redis/redis-nodes.js';
import { call, result } from '../tasks/tasks-wire.js';

/**
 * A node that loses a job's lock stops its handler, with real parts: two child processes share one
 * real redis-server, each running one task handler at a time. The first run of a task blocks its
 * node's event loop (synchronously: no lock renewal, no timer) until the other node has taken the
 * job over, which it can only do once the lock lapsed (`lockMs` + up to 2 × `stalledCheckMs`). The
 * stalled node's handler would then finish first (it has less left to do); instead BullMQ reports
 * the lost lock, its signal aborts with a reason that says so, and the task's ending is the other
 * node's.
 */

/** Short, so the stalled node's lock lapses and moves within seconds. */
const QUEUE = { lockMs: 2000, stalledCheckMs: 500 };
/** After the stall, the stalled run has 2 s left; the run that took over, 5 s from its start. */
const STALLED_STEPS = 20;
const TAKEOVER_STEPS = 50;

let redis: RedisServer;
let nodes: NodeProcess[] = [];
const label = `lock-loss-${process.pid}-${Date.now()}`;
const files = stallFiles(label);

beforeAll(async () => {
  redis = await startRedis();
  nodes = await Promise.all(
    ['node-1', 'node-2'].map((name) =>
      startNode({
        name,
        redisUrl: redis.url,
        keyPrefix: 'lock-loss-e2e:',
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
  // A stalled node that was never released would not stop on SIGTERM.
  writeFileSync(files.release, '');
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await redis?.stop();
  rmSync(files.marker, { force: true });
  rmSync(files.release, { force: true });
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const urlOf = (node: NodeProcess) => `http://127.0.0.1:${node.port}/mcp`;
/** The lines of `node`'s output that start with `prefix` and are about this test's task. */
const linesOf = (node: NodeProcess, prefix: string) =>
  node
    .output()
    .split('\n')
    .filter((line) => line.startsWith(`${prefix} ${label} `));
const outputs = () => nodes.map((n) => `${n.name}:\n${n.output()}`).join('\n');

async function until<T>(what: string, check: () => T | undefined | false, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${outputs()}`);
    await delay(50);
  }
}

describe('@mocapi/nestjs/bullmq: a node that loses a job lock', () => {
  it('aborts its handler (the reason says the lock was lost) and drops its ending: the task ends as the node that took over ran it', async () => {
    const created = result(
      await call(urlOf(nodes[0]!), 'tools/call', {
        name: 'stalling_task',
        arguments: { label, steps: STALLED_STEPS, takeoverSteps: TAKEOVER_STEPS },
      }),
    );
    expect(created.resultType).toBe('task');
    const { taskId } = created;

    // One node's worker took the job and stalls; the other takes the job over once the lock lapsed.
    const stalled = await until('a stalled run', () => nodes.find((n) => linesOf(n, 'STALL').length > 0), 20_000);
    const other = nodes.find((n) => n !== stalled)!;
    const stalledAt = Date.now();
    await until('the job taken over', () => linesOf(other, 'START').length > 0, 30_000);
    // The other node could only take the job once the stalled node's lock had lapsed.
    expect(Date.now() - stalledAt).toBeGreaterThan(QUEUE.lockMs - 500);
    expect(linesOf(stalled, 'RESUMED')).toEqual([]);
    writeFileSync(files.release, '');

    // The stalled handler goes on after the stall, and is aborted soon: its lock is gone.
    await until('the stalled handler aborted', () => linesOf(stalled, 'ABORTED').length > 0, 10_000);
    expect(linesOf(stalled, 'ABORTED')).toEqual([
      `ABORTED ${label} ${stalled.name} shutdown: This node lost the task queue lock of the task; another node runs it`,
    ]);

    const deadline = Date.now() + 30_000;
    let task = result(await call(urlOf(other), 'tasks/get', { taskId }));
    while (task.status === 'working' && Date.now() < deadline) {
      await delay(100);
      task = result(await call(urlOf(other), 'tasks/get', { taskId }));
    }
    expect(task.status).toBe('completed');
    expect(task.result.content).toEqual([{ type: 'text', text: `Stalling task ${label} done on ${other.name}` }]);
    // Each node ran it once: the stalled one stopped, the other one finished.
    expect(linesOf(stalled, 'START')).toHaveLength(1);
    expect(linesOf(stalled, 'DONE')).toEqual([]);
    expect(linesOf(other, 'START')).toHaveLength(1);
    expect(linesOf(other, 'DONE')).toHaveLength(1);
    expect(linesOf(other, 'ABORTED')).toEqual([]);
    // The loss was reported as such, and the stalled node did not try to end the job it no longer held.
    expect(stalled.output()).toContain('lost the lock of job');
    expect(stalled.output()).not.toMatch(/Lock mismatch|Missing lock/);
    // The stalled node dropped its ending for good: the task stays as the other node ended it.
    await delay(1000);
    expect(result(await call(urlOf(stalled), 'tasks/get', { taskId })).result).toEqual(task.result);
  }, 120_000);
});
