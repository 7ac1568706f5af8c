import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Balancer, startNginx } from '../multi-node/nginx-balancer.js';
import { rpc as rawRpc } from '../support/raw-mcp.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { killNodes, type NodeProcess, startNode } from '../redis/redis-nodes.js';

/**
 * Tasks on @mocapi/nestjs/bullmq across three nodes (child processes) sharing one real
 * redis-server, behind a real nginx with plain round robin; the clients poll through nginx. A task
 * outlives the node running it (SIGKILL, SIGTERM), waits for input across a restart of every node,
 * is cancelled from any node, and 50 tasks never run more than the configured 2 at once per node.
 */

const CLIENT = fileURLToPath(new URL('../tasks/clients/ext-tasks-client.mjs', import.meta.url));
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const WITH_ELICITATION = { ...TASKS, elicitation: { form: {} } };
const CONCURRENCY = 2;

let redis: RedisServer;
let nodes: NodeProcess[] = [];
let balancer: Balancer;
let started = 0;
const retired: NodeProcess[] = [];

const startQueueNode = (port?: number) =>
  startNode({
    port,
    name: `node-${++started}`,
    redisUrl: redis.url,
    keyPrefix: 'queue-e2e:',
    rateLimit: 1_000_000,
    rateTtlMs: 60_000,
    flowClaimTtlMs: 3000,
    queueConcurrency: CONCURRENCY,
  });

beforeAll(async () => {
  redis = await startRedis();
  nodes = await Promise.all([startQueueNode(), startQueueNode(), startQueueNode()]);
  balancer = await startNginx(nodes.map((n) => n.port));
}, 90_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await redis?.stop();
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const everyNode = () => [...retired, ...nodes];
const lines = (prefix: string) =>
  everyNode().flatMap((n) =>
    n
      .output()
      .split('\n')
      .filter((line) => line.startsWith(prefix)),
  );
/** The name of the node whose last STEP line for `label` is the latest seen. */
const runnerOf = (label: string) => lines(`STEP ${label} `).pop()?.split(' ')[3];

async function until<T>(what: string, check: () => T | undefined | false, ms = 40_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await delay(50);
  }
}

let ids = 0;
async function rpc(url: string, method: string, params: Record<string, unknown>, capabilities = TASKS) {
  const response = await rawRpc(url, method, params, { id: `q-${++ids}`, capabilities });
  if (response.json?.error) throw new Error(`${method}: ${JSON.stringify(response.json.error)}`);
  return response.json.result;
}

async function pollUntil(taskId: string, done: (task: any) => boolean, ms = 40_000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const task = await rpc(balancer.url, 'tasks/get', { taskId });
    if (done(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
    await delay(100);
  }
}

/** Replaces a node (stopped or killed) by a fresh one on its port, so in its place behind nginx. */
async function replace(node: NodeProcess): Promise<void> {
  retired.push(node);
  await until('the old node gone', () => !node.alive());
  const fresh = await startQueueNode(node.port);
  nodes = nodes.map((n) => (n === node ? fresh : n));
}

/** The official tasks client (a plain Node child) running `tool` through the balancer and settling it. */
function officialFollow(tool: string, label: string) {
  const child = spawn(process.execPath, [CLIENT, balancer.url, 'follow', tool, label], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const settled = new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('exit', () => {
      clearTimeout(timer);
      const last = output.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as Record<string, any>);
      } catch {
        reject(new Error(`the tasks client printed: ${output}`));
      }
    });
  });
  return { settled, taskId: () => /TASK (\S+)/.exec(output)?.[1] };
}

describe('@mocapi/nestjs/bullmq: three nodes behind nginx round robin', () => {
  it('a 20-second task survives SIGKILL of its node: another node takes it within 30 s, progress resumes, and the official tasks client decodes the result', async () => {
    const client = officialFollow('steady_report', 'killed');
    const taskId = await until('the task', client.taskId);
    const victimName = await until('a first step', () => lines('STEP killed 3 ')[0]?.split(' ')[3]);
    const victim = nodes.find((n) => n.name === victimName)!;
    // One node runs the task: no other has printed a step of it.
    const stepsOf = (node: NodeProcess) =>
      node
        .output()
        .split('\n')
        .filter((l) => l.startsWith('STEP killed ')).length;
    const others = nodes.filter((n) => n !== victim);
    expect(others.map(stepsOf)).toEqual([0, 0]);
    victim.child.kill('SIGKILL');
    const killed = Date.now();
    await until('progress on another node', () => others.some((n) => stepsOf(n) > 0), 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${nodes.map((n) => `${n.name}:\n${n.output()}`).join('\n')}`);
    });
    const takenAfterMs = Date.now() - killed;
    expect(takenAfterMs).toBeLessThan(30_000);
    const midway = await rpc(balancer.url, 'tasks/get', { taskId });
    expect(midway.status).toBe('working');
    expect(midway.statusMessage).toMatch(/^Step \d+ of 40 on node-\d+$/);
    const observed = await client.settled;
    expect(observed).toMatchObject({ taskId, status: 'completed' });
    expect(observed['result'].content).toEqual([{ type: 'text', text: 'Report killed done in 40 steps' }]);
    await replace(victim);
  }, 120_000);

  it('a rolling restart (SIGTERM of each node in turn) during a task: it completes, and nothing is logged at ERROR', async () => {
    const { taskId } = await rpc(balancer.url, 'tools/call', {
      name: 'steady_report',
      arguments: { label: 'rolling', steps: 24 },
    });
    for (const node of [...nodes]) {
      await until('a step', () => lines('STEP rolling ').length > 0);
      const stopping = Date.now();
      await node.stop();
      // Out within 10 s of SIGTERM by itself (stop() SIGKILLs a node still running after 10 s).
      expect(Date.now() - stopping).toBeLessThan(10_000);
      expect(node.child.signalCode).not.toBe('SIGKILL');
      await replace(node);
    }
    const done = await pollUntil(taskId, (task) => task.status !== 'working', 60_000);
    expect(done).toMatchObject({ status: 'completed', statusMessage: 'Completed' });
    expect(done.result.content).toEqual([{ type: 'text', text: 'Report rolling done in 24 steps' }]);
    const errors = everyNode().flatMap((n) =>
      n
        .output()
        .split('\n')
        .filter((line) => / ERROR /.test(line)),
    );
    expect(errors).toEqual([]);
  }, 150_000);

  it('a task waiting for input survives a restart of every node, then completes after tasks/update', async () => {
    const created = await rpc(
      balancer.url,
      'tools/call',
      { name: 'approved_report', arguments: { label: 'parked' } },
      WITH_ELICITATION,
    );
    const asked = await pollUntil(created.taskId, (task) => task.status === 'input_required');
    for (const node of [...nodes]) {
      await node.stop();
      await replace(node);
    }
    const [key] = Object.keys(asked.inputRequests);
    await rpc(
      balancer.url,
      'tasks/update',
      { taskId: created.taskId, inputResponses: { [key!]: { action: 'accept', content: { ok: true } } } },
      WITH_ELICITATION,
    );
    const done = await pollUntil(created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Report parked done in 4 steps' }]);
  }, 150_000);

  it('tasks/cancel through any node aborts the handler where it runs', async () => {
    const { taskId } = await rpc(balancer.url, 'tools/call', {
      name: 'steady_report',
      arguments: { label: 'cancelled' },
    });
    const runner = await until('a step', () => runnerOf('cancelled'));
    const other = nodes.find((n) => n.name !== runner)!;
    await rpc(`http://127.0.0.1:${other.port}/mcp`, 'tasks/cancel', { taskId });
    const stepsAtCancel = lines('STEP cancelled ').length;
    await delay(1500);
    // At most the step already under way when the cancellation arrived.
    expect(lines('STEP cancelled ').length).toBeLessThanOrEqual(stepsAtCancel + 1);
    expect((await rpc(balancer.url, 'tasks/get', { taskId })).status).toBe('cancelled');
  }, 60_000);

  it(`50 tasks across the three nodes with concurrency ${CONCURRENCY} per node: all complete, never more than ${CONCURRENCY} at once on a node`, async () => {
    const before = lines('CONCURRENT ').length;
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        rpc(balancer.url, 'tools/call', { name: 'short_report', arguments: { label: `many-${i}` } }),
      ),
    );
    const done = await Promise.all(
      created.map(({ taskId }) => pollUntil(taskId, (task) => task.status !== 'working', 90_000)),
    );
    expect(done.map((task) => task.status)).toEqual(Array(50).fill('completed'));
    const peaks = lines('CONCURRENT ')
      .slice(before)
      .map((line) => Number(line.split(' ')[2]));
    expect(peaks).toHaveLength(50);
    expect(Math.max(...peaks)).toBe(CONCURRENCY);
  }, 150_000);
});
