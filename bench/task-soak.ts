// Soak of @mocapi/nestjs/bullmq: tasks (a short handler with one side effect, an EFFECT line)
// created through a real nginx (round robin) in front of three nodes (child processes) that share
// a real redis-server for the task store and the queue, while a node is SIGKILLed and restarted
// every few seconds. Prints how many tasks completed, failed, got lost or stuck, how often the
// handler began and how often its side effect happened per task.
//
//   npm run soak:tasks -- [--tasks 1000] [--concurrency 24] [--kill-every-ms 4000] [--json out.json]
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { startNginx } from '../test/multi-node/nginx-balancer.js';
import { rpc as rawRpc } from '../test/support/raw-mcp.js';
import { startRedis } from '../test/support/redis-server.js';
import { killNodes, type NodeProcess, startNode } from '../test/redis/redis-nodes.js';
import { option } from './cli-option.js';

const TASKS = option('tasks', 1000);
const CONCURRENCY = option('concurrency', 24);
const KILL_EVERY_MS = option('kill-every-ms', 4000);
const JSON_OUT = option('json');
/** A task not finished this long after it was created is stuck. */
const STUCK_MS = 120_000;
const EXTENSIONS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request through the balancer: status and parsed body (undefined when the body is not JSON). */
async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ status: number; body: any }> {
  const response = await rawRpc(url, method, params, { capabilities: EXTENSIONS, agent });
  return { status: response.status, body: response.json };
}

type Fate = 'completed' | 'failed' | 'cancelled' | 'lost' | 'stuck' | 'not-created';

const redis = await startRedis();
let nodes: NodeProcess[] = [];
const retired: NodeProcess[] = [];
let started = 0;
const startQueueNode = (port?: number) =>
  startNode({
    name: `node-${++started}`,
    port,
    redisUrl: redis.url,
    keyPrefix: 'task-soak:',
    rateLimit: 1_000_000,
    rateTtlMs: 60_000,
    flowClaimTtlMs: 15_000,
    queueConcurrency: 4,
  });
try {
  nodes = await Promise.all([startQueueNode(), startQueueNode(), startQueueNode()]);
  const balancer = await startNginx(nodes.map((n) => n.port));
  try {
    const startedAt = Date.now();
    let kills = 0;
    let running = true;
    const killer = (async () => {
      while (running) {
        await delay(KILL_EVERY_MS);
        if (!running) break;
        const victim = nodes[Math.floor(Math.random() * nodes.length)]!;
        victim.child.kill('SIGKILL');
        kills++;
        while (victim.alive()) await delay(20);
        retired.push(victim);
        const fresh = await startQueueNode(victim.port);
        nodes = nodes.map((n) => (n === victim ? fresh : n));
      }
    })();

    const fates: Fate[] = [];
    const durations: number[] = [];
    let createErrors = 0;
    let pollErrors = 0;
    let next = 0;
    /** The label of each task the client got an id for (a create whose answer was lost may still have made one). */
    const tracked = new Set<string>();
    const runOne = async (base: string): Promise<Fate> => {
      let taskId: string | undefined;
      for (let attempt = 0; attempt < 10 && !taskId; attempt++) {
        const label = `${base}.${attempt}`;
        const created = await rpc(balancer.url, 'tools/call', { name: 'ledger_entry', arguments: { label } }).catch(
          () => undefined,
        );
        if (created?.body?.result?.taskId) tracked.add(label);
        taskId = created?.body?.result?.taskId;
        if (!taskId) {
          createErrors++;
          await delay(200);
        }
      }
      if (!taskId) return 'not-created';
      const createdAt = Date.now();
      while (Date.now() - createdAt < STUCK_MS) {
        await delay(250);
        const got = await rpc(balancer.url, 'tasks/get', { taskId }).catch(() => undefined);
        const task = got?.body?.result;
        if (!task) {
          if (got?.body?.error) return 'lost';
          pollErrors++;
          continue;
        }
        if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') {
          durations.push(Date.now() - createdAt);
          return task.status;
        }
      }
      return 'stuck';
    };
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < TASKS) {
          const label = `t${next++}`;
          fates.push(await runOne(label));
          if (fates.length % 100 === 0) process.stderr.write(`  ${fates.length} tasks, ${kills} kills\n`);
        }
      }),
    );
    running = false;
    await killer;
    const seconds = (Date.now() - startedAt) / 1000;
    const output = [...retired, ...nodes].flatMap((n) => n.output().split('\n'));
    const count = (prefix: string) => {
      const byLabel = new Map<string, number>();
      for (const line of output) {
        if (!line.startsWith(prefix)) continue;
        const label = line.split(' ')[1]!;
        byLabel.set(label, (byLabel.get(label) ?? 0) + 1);
      }
      return byLabel;
    };
    const effects = count('EFFECT ');
    const begins = count('BEGIN ');
    const tally = (fate: Fate) => fates.filter((f) => f === fate).length;
    durations.sort((a, b) => a - b);
    const report = {
      tasks: TASKS,
      concurrency: CONCURRENCY,
      killEveryMs: KILL_EVERY_MS,
      kills,
      seconds: Math.round(seconds),
      completed: tally('completed'),
      failed: tally('failed'),
      cancelled: tally('cancelled'),
      lost: tally('lost'),
      stuck: tally('stuck'),
      notCreated: tally('not-created'),
      createErrors,
      pollErrors,
      handlerBegins: [...tracked].reduce((sum, label) => sum + (begins.get(label) ?? 0), 0),
      tasksRunMoreThanOnce: [...tracked].filter((label) => (begins.get(label) ?? 0) > 1).length,
      effects: [...tracked].reduce((sum, label) => sum + (effects.get(label) ?? 0), 0),
      tasksWithoutEffect: [...tracked].filter((label) => !effects.has(label)).length,
      tasksWithEffectTwice: [...tracked].filter((label) => (effects.get(label) ?? 0) > 1).length,
      // Tasks made by a create whose answer the balancer lost (the node died): they ran too.
      untrackedTasks: [...begins.keys()].filter((label) => !tracked.has(label)).length,
      completionMs: {
        p50: durations[Math.floor(durations.length * 0.5)],
        p99: durations[Math.floor(durations.length * 0.99)],
        max: durations.at(-1),
      },
    };
    console.log(JSON.stringify(report, null, 2));
    if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(report, null, 2)}\n`);
    const clean = report.lost === 0 && report.stuck === 0 && report.failed === 0 && report.notCreated === 0;
    process.exitCode = clean && report.tasksWithEffectTwice === 0 ? 0 : 1;
  } finally {
    await balancer.stop();
  }
} finally {
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await redis.stop();
  agent.destroy();
}
