// Soak of @mocapi/nestjs/bullmq: tasks (a short handler with one side effect: a ledger entry keyed
// on the task's McpTaskContext.operationId, and an EFFECT line when it was booked) created through a
// real nginx (round robin) in front of three nodes (child processes) that share a real
// redis-server for the task store and the queue, while a node is SIGKILLed and restarted every few
// seconds. Each create carries an idempotencyKey (SEP-3182) and is retried with it until it is
// answered. Prints how many tasks completed, failed, got lost or stuck, how many were never
// created, how many creates failed and why, orphan tasks (two tasks for one create) and double
// side effects (two ledger entries for one create, read from Redis). With --cluster the nodes share a
// real Redis Cluster (six redis-server, three masters and three replicas) instead, and once a third
// of the tasks were created the master holding the task queue is SIGKILLed (its replica takes over).
//
//   npm run soak:tasks -- [--tasks 1000] [--concurrency 24] [--kill-every-ms 4000] [--cluster] [--json out.json] [--node-log nodes.log]
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { Cluster, Redis } from 'ioredis';
import { startNginx } from '../test/multi-node/nginx-balancer.js';
import { rpc as rawRpc } from '../test/support/raw-mcp.js';
import { startRedis } from '../test/support/redis-server.js';
import { startRedisCluster } from '../test/support/redis-cluster.js';
import { killNodes, type NodeProcess, startNode } from '../test/redis/redis-nodes.js';
import { option } from './cli-option.js';

const TASKS = option('tasks', 1000);
const CONCURRENCY = option('concurrency', 24);
const KILL_EVERY_MS = option('kill-every-ms', 4000);
const JSON_OUT = option('json');
const CLUSTER = process.argv.includes('--cluster');
/** Where to write every node's output at the end (their logs, BEGIN and EFFECT lines). */
const NODE_LOG = option('node-log');
/** A task not finished this long after it was created is stuck. */
const STUCK_MS = 120_000;
/** How long a create is retried (with the same idempotencyKey) before the task counts as not created. */
const CREATE_FOR_MS = 60_000;
/** A dead node's claim on a create's key lapses after this (the nodes' `flowClaimTtlMs`). */
const CLAIM_TTL_MS = 3000;
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

const redis = CLUSTER ? undefined : await startRedis();
const cluster = CLUSTER ? await startRedisCluster() : undefined;
let nodes: NodeProcess[] = [];
const retired: NodeProcess[] = [];
let started = 0;
const startQueueNode = (port?: number) =>
  startNode({
    name: `node-${++started}`,
    port,
    redisUrl: redis?.url ?? '',
    ...(cluster && { cluster: cluster.seeds }),
    keyPrefix: 'task-soak:',
    rateLimit: 1_000_000,
    rateTtlMs: 60_000,
    flowClaimTtlMs: CLAIM_TTL_MS,
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

    /** With --cluster: the master failover, once a third of the tasks were created. */
    let failoverAt: number | undefined;
    let failover: Promise<{ killed: number; promoted: number; seconds: number }> | undefined;
    const fates: Fate[] = [];
    const durations: number[] = [];
    /** Creates that got no task, by why: no answer, an HTTP status without a JSON-RPC answer, a JSON-RPC error code or data.type. */
    const createErrors = new Map<string, number>();
    const createError = (why: string) => createErrors.set(why, (createErrors.get(why) ?? 0) + 1);
    let pollErrors = 0;
    /** Why tasks/get said a task is gone, by its error. */
    const lostWhy = new Map<string, number>();
    /** The tasks tasks/get said were gone: which, and when (ms since the epoch). */
    const lostTasks: Array<{ label: string; taskId: string; createdAt: number; lostAt: number }> = [];
    let next = 0;
    /** The label of each task the client got an id for. */
    const tracked = new Set<string>();
    const runOne = async (label: string): Promise<Fate> => {
      let taskId: string | undefined;
      // One key per task: a retry of a create whose answer was lost gets the task it made.
      const params = { name: 'ledger_entry', arguments: { label }, idempotencyKey: label };
      const giveUpAt = Date.now() + CREATE_FOR_MS;
      for (let pause = 100; !taskId && Date.now() < giveUpAt; pause = Math.min(pause * 2, 2000)) {
        const created = await rpc(balancer.url, 'tools/call', params).catch(() => undefined);
        taskId = created?.body?.result?.taskId;
        if (taskId) break;
        const error = created?.body?.error;
        createError(
          !created
            ? 'no answer'
            : error
              ? String(
                  error.data?.type ??
                    (error.code === -32603
                      ? `-32603 ${error.message}`
                      : error.data?.limit
                        ? `${error.code} ${error.data.limit}`
                        : error.code),
                )
              : `HTTP ${created.status}`,
        );
        await delay(pause);
      }
      if (!taskId) return 'not-created';
      tracked.add(label);
      const createdAt = Date.now();
      while (Date.now() - createdAt < STUCK_MS) {
        await delay(250);
        const got = await rpc(balancer.url, 'tasks/get', { taskId }).catch(() => undefined);
        const task = got?.body?.result;
        if (!task) {
          // The transient error (-32051: the shared store is failing over, or a node is busy) says
          // "ask again"; any other error means the task is gone.
          if (got?.body?.error && got.body.error.code !== -32051) {
            const why = `${got.body.error.code} ${got.body.error.message}`;
            lostWhy.set(why, (lostWhy.get(why) ?? 0) + 1);
            lostTasks.push({ label, taskId, createdAt, lostAt: Date.now() });
            return 'lost';
          }
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
          if (cluster && !failover && next >= TASKS / 3) {
            const began = Date.now();
            failoverAt = began;
            failover = cluster
              .failMasterOf('{bull}')
              .then((moved) => ({ ...moved, seconds: (Date.now() - began) / 1000 }));
          }
          fates.push(await runOne(label));
          if (fates.length % 100 === 0) process.stderr.write(`  ${fates.length} tasks, ${kills} kills\n`);
        }
      }),
    );
    running = false;
    await killer;
    const masterFailover = await failover;
    const seconds = (Date.now() - startedAt) / 1000;
    const output = [...retired, ...nodes].flatMap((n) => n.output().split('\n'));
    if (NODE_LOG) writeFileSync(NODE_LOG, [...retired, ...nodes].map((n) => `== ${n.name}\n${n.output()}`).join('\n'));
    // The ledger, read from Redis: one entry per task key the handler booked under.
    const ledgerClient = cluster ? new Cluster([...cluster.seeds]) : new Redis(redis!.url);
    const ledger = Object.values(await ledgerClient.hgetall('task-soak:ledger'));
    // What the callers' live sets still count as running once every task ended (0 when the counts are right).
    const masters = ledgerClient instanceof Cluster ? ledgerClient.nodes('master') : [ledgerClient];
    let countedRunning = 0;
    for (const master of masters) {
      for (const key of await master.keys('task-soak:task-live:*')) countedRunning += await master.zcard(key);
    }
    ledgerClient.disconnect();
    const entries = new Map<string, number>();
    for (const label of ledger) entries.set(label, (entries.get(label) ?? 0) + 1);
    /** The distinct tasks (operationIds of the BEGIN lines) that ran for each label. */
    const tasksOf = new Map<string, Set<string>>();
    for (const line of output) {
      if (!line.startsWith('BEGIN ')) continue;
      const [, label, , operationId] = line.split(' ');
      if (!tasksOf.has(label!)) tasksOf.set(label!, new Set());
      tasksOf.get(label!)!.add(operationId!);
    }
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
      ...(masterFailover && { masterFailover: { ...masterFailover, at: failoverAt } }),
      seconds: Math.round(seconds),
      completed: tally('completed'),
      failed: tally('failed'),
      cancelled: tally('cancelled'),
      lost: tally('lost'),
      ...(lostWhy.size > 0 && { lostWhy: Object.fromEntries(lostWhy), lostTasks }),
      stuck: tally('stuck'),
      notCreated: tally('not-created'),
      createErrors: Object.fromEntries(createErrors),
      pollErrors,
      handlerBegins: [...tracked].reduce((sum, label) => sum + (begins.get(label) ?? 0), 0),
      tasksRunMoreThanOnce: [...tracked].filter((label) => (begins.get(label) ?? 0) > 1).length,
      effects: [...tracked].reduce((sum, label) => sum + (effects.get(label) ?? 0), 0),
      ledgerEntries: ledger.length,
      countedRunning,
      tasksWithoutEffect: [...tracked].filter((label) => !entries.has(label)).length,
      // Two ledger entries for one create: a side effect twice (two tasks, or a key that changed between runs).
      doubleEffects: [...entries.values()].filter((n) => n > 1).length,
      // A create that made more than one task (a lost answer retried without the task coming back).
      orphanTasks: [...tasksOf.values()].reduce((sum, tasks) => sum + tasks.size - 1, 0),
      // Tasks that ran for a create the client never got an answer for.
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
    const once = report.doubleEffects === 0 && report.orphanTasks === 0 && report.tasksWithoutEffect === 0;
    process.exitCode = clean && once ? 0 : 1;
  } finally {
    await balancer.stop();
  }
} finally {
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await redis?.stop();
  await cluster?.stop();
  agent.destroy();
}
