import { setTimeout as delay } from 'node:timers/promises';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { callTool } from '../mrtr/mrtr-wire.js';
import { type Balancer, startNginx } from '../multi-node/nginx-balancer.js';
import { MOTD } from '../redis/redis-node.module.js';
import { killNodes, type NodeProcess, startNode } from '../redis/redis-nodes.js';
import { rpc as rawRpc, type RawResponse } from '../support/raw-mcp.js';
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.js';
import { openListen } from '../support/sse-stream.js';

/**
 * @mocapi/nestjs/redis and /bullmq on a real Redis Cluster (six redis-server: three masters, three
 * replicas), three nodes (child processes, two on Express, one on Fastify) behind nginx round robin,
 * each with an ioredis `Cluster` as `client` of both modules: cross-node delivery over sharded
 * pub/sub, exactly-once, one rate limit, a queued task outliving its node, and master failovers
 * survived.
 */

const NAMES = ['node-a', 'node-b', 'node-c'];
const RATE_LIMIT = 5;
const YES = { 'elicit-1': { action: 'accept', content: { ok: true } } };
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

let cluster: RedisCluster;
let nodes: NodeProcess[] = [];
const retired: NodeProcess[] = [];
let balancer: Balancer;
let started = 0;

/** node-c (and every replacement) runs on Fastify, the others on Express. */
const startClusterNode = (name = `node-${++started}`, port?: number) =>
  startNode({
    name,
    port,
    adapter: name === 'node-a' || name === 'node-b' ? 'express' : 'fastify',
    redisUrl: '',
    cluster: cluster.seeds,
    keyPrefix: 'e2e:',
    rateLimit: RATE_LIMIT,
    rateTtlMs: 60_000,
    flowClaimTtlMs: 3000,
    queueConcurrency: 4,
    queue: { lockMs: 2000, stalledCheckMs: 1000 },
  });

beforeAll(async () => {
  cluster = await startRedisCluster();
  nodes = await Promise.all(NAMES.map((name) => startClusterNode(name)));
  balancer = await startNginx(nodes.map((n) => n.port));
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await cluster?.stop();
});

const nodeUrl = (node: NodeProcess) => `http://127.0.0.1:${node.port}/mcp`;
const nodeOf = (response: RawResponse) => response.headers['x-node'] as string | undefined;
const lines = (prefix: string) =>
  [...retired, ...nodes].flatMap((n) =>
    n
      .output()
      .split('\n')
      .filter((line) => line.startsWith(prefix)),
  );
const outputs = () => [...retired, ...nodes].map((n) => `${n.name}:\n${n.output()}`).join('\n');

async function until<T>(what: string, check: () => T | undefined | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${outputs()}`);
    await delay(50);
  }
}

let ids = 0;
const taskRpc = (url: string, method: string, params: Record<string, unknown>) =>
  rawRpc(url, method, params, { id: `c-${++ids}`, capabilities: TASKS });

/** Polls through the balancer until the task is no longer working; 503s (a failover) are retried. */
async function settled(taskId: string, ms = 30_000): Promise<Record<string, any>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const polled = await taskRpc(balancer.url, 'tasks/get', { taskId });
    if (polled.status !== 503 && polled.json?.error) throw new Error(JSON.stringify(polled.json.error));
    const status = polled.json?.result?.status;
    if (status !== undefined && status !== 'working') return polled.json.result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${JSON.stringify(polled.json)}\n${outputs()}`);
    await delay(100);
  }
}

/**
 * Both rounds of place_order through the balancer, as a client that honours 503 + Retry-After
 * does: every answer is recorded; anything but 200 or the transient error fails the test.
 */
async function booking(answers: RawResponse[]): Promise<Record<string, any>> {
  const send = async (args?: Record<string, unknown>) => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const response = await callTool(balancer.url, 'place_order', {}, args);
      answers.push(response);
      if (response.status !== 503) return response;
      await delay(250);
    }
    throw new Error('still 503 after 40 attempts');
  };
  const first = await send();
  const final = await send({ requestState: first.json.result.requestState, inputResponses: YES });
  return final.json.result.structuredContent;
}

describe('@mocapi/nestjs/redis + /bullmq on a Redis Cluster, three nodes behind nginx round robin', () => {
  it('a listen stream on one node hears updates raised on every node, each once (sharded pub/sub)', async () => {
    const [a, b, c] = nodes as [NodeProcess, NodeProcess, NodeProcess];
    const stream = await openListen(nodeUrl(a), 'listen-a', { resourceSubscriptions: [MOTD] });
    try {
      await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      for (const node of [b, c, a]) await callTool(nodeUrl(node), 'touch');
      await stream.waitFor(() => stream.messages.filter((m) => m.params?.uri === MOTD).length === 3);
      await delay(200);
      expect(stream.messages.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(3);
    } finally {
      stream.close();
    }
  });

  it('a 2025-era client with default settings completes a pushed elicitation, its answers landing on other nodes (202)', async () => {
    const served: Array<{ what: string; node?: string | null; status?: number }> = [];
    const inFlight: Array<Promise<unknown>> = [];
    const recording: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const what = !body ? `${init?.method ?? 'GET'}` : String(body['method'] ?? `response ${String(body['id'])}`);
      const entry: (typeof served)[number] = { what };
      served.push(entry);
      const sent = fetch(input, init);
      inFlight.push(sent.catch(() => undefined));
      const response = await sent;
      Object.assign(entry, { node: response.headers.get('x-node'), status: response.status });
      return response;
    };
    const { client, close } = await connectLegacyClient(balancer.url, {
      onElicit: (params): ElicitResult => {
        const field = Object.keys(
          (params as { requestedSchema: { properties: object } }).requestedSchema.properties,
        )[0]!;
        return { action: 'accept', content: field === 'name' ? { name: 'Ada' } : { city: 'Porto' } };
      },
      fetch: recording,
    });
    try {
      // Several calls, so that round robin puts answers on other nodes than the call's stream.
      for (let i = 0; i < 3; i++) {
        const result = await client.callTool({ name: 'survey', arguments: {} });
        expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(
          /^Ada from Porto \(completed by node-\w\)$/,
        );
      }
      await Promise.all(inFlight);
      const answers = served.filter((s) => s.what.startsWith('response '));
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(202));
      const calls = served.filter((s) => s.what === 'tools/call');
      const elsewhere = answers.filter((a, i) => a.node !== calls[Math.floor(i / 2)]!.node);
      expect(elsewhere.length).toBeGreaterThan(0);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${JSON.stringify(served, null, 1)}`, { cause: error });
    } finally {
      await close().catch(() => undefined);
    }
  });

  it('an answer for a node that does not exist is refused with 400 on a cluster too (no acknowledgement comes)', async () => {
    const { transport, close } = await connectLegacyClient(balancer.url);
    try {
      const response = await fetch(balancer.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'mocapi-AAAAAAAA-1', result: { action: 'accept', content: {} } }),
      });
      expect(response.status).toBe(400);
    } finally {
      await close();
    }
  });

  it('30 concurrent copies of one final round, spread over the nodes, run the side effect once', async () => {
    const first = await callTool(balancer.url, 'place_order');
    const { requestState } = first.json.result;
    const finals = await Promise.all(
      Array.from({ length: 30 }, () =>
        callTool(balancer.url, 'place_order', {}, { requestState, inputResponses: YES }),
      ),
    );
    expect(finals.map((f) => f.status)).toEqual(Array(30).fill(200));
    expect(new Set(finals.map((f) => JSON.stringify(f.json.result.structuredContent))).size).toBe(1);
    const { flowId, placed } = finals[0]!.json.result.structuredContent;
    expect(placed).toBe(true);
    expect(new Set(finals.map(nodeOf))).toEqual(new Set(NAMES));
    expect(lines(`RAN ${flowId} `)).toHaveLength(1);
  });

  it(`a rate limit of ${RATE_LIMIT} per window holds across the three nodes`, async () => {
    const calls: RawResponse[] = [];
    for (let i = 0; i < RATE_LIMIT * 3; i++) calls.push(await callTool(balancer.url, 'limited'));
    expect(calls.filter((c) => c.status === 200 && !c.json.error)).toHaveLength(RATE_LIMIT);
    expect(calls.filter((c) => c.status === 429)).toHaveLength(RATE_LIMIT * 2);
  });

  it('a queued task survives SIGKILL of its node: another node takes it and completes it', async () => {
    const created = await taskRpc(balancer.url, 'tools/call', {
      name: 'steady_report',
      arguments: { label: 'killed', steps: 8 },
    });
    const { taskId } = created.json.result;
    const victimName = await until('a second step', () => lines('STEP killed 2 ')[0]?.split(' ')[3]);
    const victim = nodes.find((n) => n.name === victimName)!;
    victim.child.kill('SIGKILL');
    const done = await settled(taskId);
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.result.content).toEqual([{ type: 'text', text: 'Report killed done in 8 steps' }]);
    expect(lines('DONE killed ').map((l) => l.split(' ')[2])).not.toContain(victimName);
    // A replacement takes the victim's place behind nginx.
    retired.push(victim);
    const fresh = await startClusterNode(undefined, victim.port);
    nodes = nodes.map((n) => (n === victim ? fresh : n));
  }, 60_000);

  it('SIGKILL of the master holding the task queue: its replica takes over, requests in flight get 503 (never 500), and no task is lost', async () => {
    // The queue's keys share the hash tag `{bull}` (the module tags BullMQ's default prefix).
    const labels = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'];
    const before = await Promise.all(
      labels.map(async (label) => {
        const created = await taskRpc(balancer.url, 'tools/call', { name: 'short_report', arguments: { label } });
        return created.json.result.taskId as string;
      }),
    );
    // Asynchronous replication: give the replica a moment to have the jobs.
    await delay(300);
    const answers: RawResponse[] = [];
    let failedOver = false;
    const failing = cluster.failMasterOf('{bull}').finally(() => (failedOver = true));
    // Bookings all along the failover (three at a time, their flows spread over every master) and after it.
    const booked: Array<Record<string, any>> = [];
    const load = (async () => {
      for (let after = 0; after < 5; after += failedOver ? 1 : 0) {
        booked.push(...(await Promise.all([booking(answers), booking(answers), booking(answers)])));
      }
    })();
    const { killed, promoted } = await failing;
    expect(promoted).not.toBe(killed);
    await load;
    expect(booked.every((b) => b['placed'] === true)).toBe(true);
    for (const { flowId } of booked) expect(lines(`RAN ${flowId} `)).toHaveLength(1);
    // Every answer was a success or the transient error: 503, -32051, Retry-After.
    const transient = answers.filter((a) => a.status !== 200);
    for (const answer of transient) {
      expect([answer.status, answer.json?.error?.code, answer.headers['retry-after']]).toEqual([503, -32051, '1']);
    }
    process.stdout.write(`failover: ${answers.length} answers, ${transient.length} of them 503\n`);

    // No task lost: the ones queued before the failover complete, and new ones too.
    const after = await Promise.all(
      ['g1', 'g2', 'g3'].map(async (label) => {
        for (;;) {
          const created = await taskRpc(balancer.url, 'tools/call', { name: 'short_report', arguments: { label } });
          if (created.status !== 503) return created.json.result.taskId as string;
          await delay(250);
        }
      }),
    );
    for (const taskId of [...before, ...after]) {
      const done = await settled(taskId, 40_000);
      expect(done.status).toBe('completed');
    }
  }, 90_000);

  it('SIGKILL of the master holding the event channel: once its replica took over, listen streams hear every node again', async () => {
    // `e2e:events` hashes to another master than `{bull}` (slots 14153 and 9263): each failover has its replica.
    const { killed, promoted } = await cluster.failMasterOf('e2e:events');
    expect(promoted).not.toBe(killed);
    const [a, b, c] = nodes as [NodeProcess, NodeProcess, NodeProcess];
    const heard = async () => {
      const stream = await openListen(nodeUrl(a), `listen-${Date.now()}`, { resourceSubscriptions: [MOTD] });
      try {
        await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
        for (const node of [b, c]) await callTool(nodeUrl(node), 'touch');
        await delay(500);
        return stream.messages.filter((m) => m.method === 'notifications/resources/updated').length;
      } finally {
        stream.close();
      }
    };
    // The nodes' sharded subscribers follow the new master by themselves, within a few seconds.
    let count = 0;
    for (let attempt = 0; attempt < 20 && count !== 2; attempt++) count = await heard();
    expect(count).toBe(2);
    // A 2025-era client's pushed elicitation still completes, its answers on any node.
    const { client, close } = await connectLegacyClient(balancer.url, {
      onElicit: (): ElicitResult => ({ action: 'accept', content: { ok: true } }),
    });
    try {
      for (let i = 0; i < 3; i++) {
        const result = await client.callTool({ name: 'place_order', arguments: {} });
        expect(result.structuredContent).toMatchObject({ placed: true });
      }
    } finally {
      await close().catch(() => undefined);
    }
  }, 60_000);
});
