import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { callTool } from '../mrtr/mrtr-wire.js';
import { type Balancer, startNginx } from '../multi-node/nginx-balancer.js';
import { envelope, mcpHeaders, post, type RawResponse } from '../support/raw-mcp.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { openListen, openSse } from '../support/sse-stream.js';
import { MOTD } from './redis-node.module.js';
import { killNodes, type NodeProcess, startNode } from './redis-nodes.js';
import { TASK_LEASE_MS } from './redis-node.module.js';

/**
 * Three nodes (child processes) sharing one real redis-server through @mocapi/nestjs/redis, behind a
 * real nginx with plain round robin: no request is pinned to a node, yet listen streams hear every
 * node's updates, 2025-era pushed elicitations complete, exactly-once holds, one rate limit holds
 * for all, a killed node's flow completes elsewhere, and a Redis outage is survived.
 */

const RATE_LIMIT = 6;
const NAMES = ['node-a', 'node-b', 'node-c'];
const YES = { 'elicit-1': { action: 'accept', content: { ok: true } } };
const UNAVAILABLE = -32051;

let redis: RedisServer;
let nodes: NodeProcess[] = [];
let balancer: Balancer;

beforeAll(async () => {
  redis = await startRedis();
  nodes = await Promise.all(
    NAMES.map((name) =>
      startNode({
        name,
        redisUrl: redis.url,
        keyPrefix: 'e2e:',
        rateLimit: RATE_LIMIT,
        rateTtlMs: 60_000,
        flowClaimTtlMs: 3000,
      }),
    ),
  );
  balancer = await startNginx(nodes.map((n) => n.port));
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await redis?.stop();
});

const nodeUrl = (node: NodeProcess) => `http://127.0.0.1:${node.port}/mcp`;
const nodeOf = (response: RawResponse) => response.headers['x-node'] as string | undefined;
const ranLines = (flowId: string) =>
  nodes.flatMap((n) => n.output().split('\n')).filter((line) => line.startsWith(`RAN ${flowId} `));

/** The first round of place_order: its requestState, and the node that asked. */
async function firstRound(url: string): Promise<{ requestState: unknown; askedBy: string }> {
  const first = await callTool(url, 'place_order');
  expect(first.json.result.resultType).toBe('input_required');
  return { requestState: first.json.result.requestState, askedBy: nodeOf(first)! };
}

describe('@mocapi/nestjs/redis: three nodes behind nginx round robin', () => {
  it('a listen stream on one node hears updates and list changes raised on every node, each once', async () => {
    const [a, b, c] = nodes as [NodeProcess, NodeProcess, NodeProcess];
    const stream = await openListen(nodeUrl(a), 'listen-a', { resourceSubscriptions: [MOTD], toolsListChanged: true });
    try {
      await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      for (const node of [b, c, a]) {
        const touched = await callTool(nodeUrl(node), 'touch');
        expect(touched.json.result.content[0].text).toBe(node.name);
      }
      await callTool(nodeUrl(c), 'add_tool');
      await stream.waitFor((m) => m.method === 'notifications/tools/list_changed');
      const updates = stream.messages.filter((m) => m.method === 'notifications/resources/updated');
      expect(updates.map((m) => m.params.uri)).toEqual([MOTD, MOTD, MOTD]);
      expect(updates[0].params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'listen-a' });
    } finally {
      stream.close();
    }

    // The same through the balancer: the stream is on some node, the three touches on all three.
    const balanced = await openListen(balancer.url, 'listen-lb', { resourceSubscriptions: [MOTD] });
    try {
      await balanced.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      const touchedBy = new Set<string>();
      for (let i = 0; i < 3; i++) touchedBy.add((await callTool(balancer.url, 'touch')).json.result.content[0].text);
      expect(touchedBy).toEqual(new Set(NAMES));
      await balanced.waitFor(() => balanced.messages.filter((m) => m.params?.uri === MOTD).length === 3);
      await delay(200);
      expect(balanced.messages.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(3);
    } finally {
      balanced.close();
    }
  });

  it('a 2025-era client with default settings completes a pushed two-question elicitation, its answers landing on other nodes', async () => {
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
    const updates: string[] = [];
    const { client, transport, close } = await connectLegacyClient(balancer.url, {
      onElicit: (params): ElicitResult => {
        const field = Object.keys(
          (params as { requestedSchema: { properties: object } }).requestedSchema.properties,
        )[0]!;
        return { action: 'accept', content: field === 'name' ? { name: 'Ada' } : { city: 'Porto' } };
      },
      fetch: recording,
    });
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push((n.params as { uri: string }).uri);
    });
    try {
      expect(transport.sessionId).toEqual(expect.any(String));
      const result = await client.callTool({ name: 'survey', arguments: {} });
      expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^Ada from Porto \(completed by node-\w\)$/);
      // The result can reach the client before its last answer's 202 does.
      await Promise.all(inFlight);
      const call = served.find((s) => s.what === 'tools/call')!;
      const answers = served.filter((s) => s.what.startsWith('response '));
      expect(answers.map((a) => a.status)).toEqual([202, 202]);
      // Round robin put at least one answer on another node than the one holding the call's stream.
      expect(answers.some((a) => a.node !== call.node)).toBe(true);

      // Subscribed through whichever node, the session's GET stream hears updates raised on every node.
      await client.subscribeResource({ uri: MOTD });
      await client.setLoggingLevel('error');
      for (const node of nodes) await callTool(nodeUrl(node), 'touch');
      for (let i = 0; i < 50 && updates.length < 3; i++) await delay(50);
      expect(updates).toEqual([MOTD, MOTD, MOTD]);
      // The shared state is one hash per session that expires with the session (legacy.sessionTtlMs, 24 h).
      const redisClient = new Redis(redis.url);
      try {
        const [key] = await redisClient.keys('e2e:session:*');
        expect(await redisClient.hgetall(key!)).toEqual({ level: 'error', [`sub:${MOTD}`]: '1' });
        expect(await redisClient.pttl(key!)).toBeGreaterThan(86_000_000);
      } finally {
        redisClient.disconnect();
      }

      // DELETE ends the session on every node: the next request is refused wherever it lands.
      const session = transport.sessionId!;
      await transport.terminateSession();
      for (const node of nodes) {
        const after = await fetch(nodeUrl(node), {
          method: 'POST',
          headers: { ...jsonHeaders(), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
        });
        expect(after.status).toBe(404);
      }
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${JSON.stringify(served, null, 1)}`, { cause: error });
    } finally {
      await close().catch(() => undefined);
    }
  });

  it('an answer nobody waits for is still refused with 400 (on any node)', async () => {
    const { transport, close } = await connectLegacyClient(balancer.url);
    try {
      for (const id of ['mocapi-AAAAAAAA-1', 'unknown-7']) {
        const response = await fetch(balancer.url, {
          method: 'POST',
          headers: { ...jsonHeaders(), 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id, result: { action: 'accept', content: {} } }),
        });
        expect(response.status).toBe(400);
      }
    } finally {
      await close();
    }
  });

  it('50 concurrent final rounds of an exactly-once tool, spread over the nodes, run the handler once', async () => {
    const { requestState } = await firstRound(balancer.url);
    const finals = await Promise.all(
      Array.from({ length: 50 }, () =>
        callTool(balancer.url, 'place_order', {}, { requestState, inputResponses: YES }),
      ),
    );
    expect(finals.map((f) => f.status)).toEqual(Array(50).fill(200));
    const results = new Set(finals.map((f) => JSON.stringify(f.json.result.structuredContent)));
    expect(results.size).toBe(1);
    const { flowId, placed } = finals[0]!.json.result.structuredContent;
    expect(placed).toBe(true);
    expect(new Set(finals.map(nodeOf))).toEqual(new Set(NAMES));
    expect(ranLines(flowId)).toHaveLength(1);
  });

  it(`a rate limit of ${RATE_LIMIT} per window holds across the three nodes`, async () => {
    const calls: RawResponse[] = [];
    for (let i = 0; i < RATE_LIMIT * 3; i++) calls.push(await callTool(balancer.url, 'limited'));
    const allowed = calls.filter((c) => c.status === 200 && !c.json.error);
    const limited = calls.filter((c) => c.status === 429);
    expect(allowed).toHaveLength(RATE_LIMIT);
    expect(limited).toHaveLength(RATE_LIMIT * 2);
    expect(limited[0]!.json.error.code).toBe(-32050);
    expect(new Set(calls.map(nodeOf))).toEqual(new Set(NAMES));
  });

  it('a task started on one node is answered by tasks/get on every node, through to its result', async () => {
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const created = await callTool(nodeUrl(nodes[0]!), 'slow_task', {}, { capabilities: tasks });
    expect(created.json.result).toMatchObject({ resultType: 'task', status: 'working' });
    const { taskId } = created.json.result;
    const get = (url: string) =>
      post(
        url,
        { jsonrpc: '2.0', id: `get-${taskId}`, method: 'tasks/get', params: { taskId, _meta: envelope(tasks) } },
        mcpHeaders('tasks/get', taskId),
      );
    for (const node of nodes) expect((await get(nodeUrl(node))).json.result).toMatchObject({ status: 'working' });
    // A listen stream on another node hears the task's changes made where its handler runs.
    const stream = await openSse(
      nodeUrl(nodes[1]!),
      {
        jsonrpc: '2.0',
        id: 'listen-task',
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: [taskId] }, _meta: envelope(tasks) },
      },
      mcpHeaders('subscriptions/listen'),
    );
    let done: RawResponse | undefined;
    for (let i = 0; i < 100; i++) {
      const polled = await get(balancer.url);
      if (polled.json.result?.status === 'completed') {
        done = polled;
        break;
      }
      await delay(50);
    }
    expect(done?.json.result.result.content).toEqual([{ type: 'text', text: 'task ran on node-a' }]);
    for (const node of nodes) expect((await get(nodeUrl(node))).json.result.status).toBe('completed');
    try {
      const ack = await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      expect(ack.params.notifications.taskIds).toEqual([taskId]);
      const heard = await stream.waitFor((m) => m.method === 'notifications/tasks' && m.params.status === 'completed');
      expect(heard.params).toMatchObject({ taskId, status: 'completed' });
    } finally {
      stream.close();
    }
  });

  it('a tasks/cancel served by another node aborts the handler on the node running it', async () => {
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const linesOf = (node: NodeProcess, prefix: string) =>
      node
        .output()
        .split('\n')
        .filter((line) => line.startsWith(`${prefix} endless_task `));
    const created = await callTool(nodeUrl(nodes[0]!), 'endless_task', {}, { capabilities: tasks });
    const { taskId } = created.json.result;
    for (let i = 0; i < 100 && linesOf(nodes[0]!, 'STARTED').length === 0; i++) await delay(20);
    expect(linesOf(nodes[0]!, 'STARTED')).toHaveLength(1);

    const cancelled = await post(
      nodeUrl(nodes[2]!),
      { jsonrpc: '2.0', id: 'cancel', method: 'tasks/cancel', params: { taskId, _meta: envelope(tasks) } },
      mcpHeaders('tasks/cancel', taskId),
    );
    expect(cancelled.json.result).toMatchObject({ resultType: 'complete' });
    for (let i = 0; i < 100 && linesOf(nodes[0]!, 'ABORTED').length === 0; i++) await delay(20);
    expect(linesOf(nodes[0]!, 'ABORTED')).toEqual(['ABORTED endless_task node-a']);
    expect([...linesOf(nodes[1]!, 'ABORTED'), ...linesOf(nodes[2]!, 'ABORTED')]).toEqual([]);
    const polled = await post(
      balancer.url,
      { jsonrpc: '2.0', id: 'get', method: 'tasks/get', params: { taskId, _meta: envelope(tasks) } },
      mcpHeaders('tasks/get', taskId),
    );
    expect(polled.json.result.status).toBe('cancelled');
  });

  it('SIGKILL of the node running a task: every node then answers it failed, within the lease', async () => {
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    // A fourth node of its own, so the others stay as the tests after this one expect them.
    const doomed = await startNode({
      name: 'node-doomed',
      redisUrl: redis.url,
      keyPrefix: 'e2e:',
      rateLimit: RATE_LIMIT,
      rateTtlMs: 60_000,
      flowClaimTtlMs: 3000,
    });
    const created = await callTool(nodeUrl(doomed), 'endless_task', {}, { capabilities: tasks });
    const { taskId } = created.json.result;
    const get = async (url: string) =>
      (
        await post(
          url,
          { jsonrpc: '2.0', id: `get-${taskId}`, method: 'tasks/get', params: { taskId, _meta: envelope(tasks) } },
          mcpHeaders('tasks/get', taskId),
        )
      ).json.result;
    expect(await get(nodeUrl(nodes[0]!))).toMatchObject({ status: 'working' });
    doomed.child.kill('SIGKILL');
    const killed = Date.now();
    let seen: Record<string, unknown> | undefined;
    while (Date.now() - killed < 10_000) {
      seen = await get(balancer.url);
      if (seen?.['status'] !== 'working') break;
      await delay(100);
    }
    expect(seen).toMatchObject({
      status: 'failed',
      statusMessage: 'The server node running this task stopped before it finished',
      error: { code: -32603 },
    });
    // Within the lease (TASK_LEASE_MS after the node's last renewal), not the task's ttl of a minute.
    expect(Date.now() - killed).toBeLessThan(TASK_LEASE_MS + 2000);
    for (const node of nodes.filter((n) => n.alive()))
      expect(await get(nodeUrl(node))).toMatchObject({ status: 'failed' });
  });

  it('SIGKILL of the node that asked between rounds: the flow completes on the others', async () => {
    const { requestState, askedBy } = await firstRound(balancer.url);
    const victim = nodes.find((n) => n.name === askedBy)!;
    const exited = new Promise((resolve) => victim.child.once('exit', resolve));
    victim.child.kill('SIGKILL');
    await exited;
    const final = await callTool(balancer.url, 'place_order', {}, { requestState, inputResponses: YES });
    expect(final.status).toBe(200);
    expect(final.json.result.structuredContent).toMatchObject({ placed: true });
    expect(nodeOf(final)).not.toBe(askedBy);
    expect(ranLines(final.json.result.structuredContent.flowId)).toHaveLength(1);
  });

  it('Redis stopped: clear 503 errors within the bound; restarted: full service, no process exits', async () => {
    const alive = nodes.filter((n) => n.alive());
    expect(alive).toHaveLength(2);
    const { requestState } = await firstRound(balancer.url);
    await redis.stop();

    for (const node of alive) {
      const started = Date.now();
      const final = await callTool(nodeUrl(node), 'place_order', {}, { requestState, inputResponses: YES });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(final.status).toBe(503);
      expect(final.headers['retry-after']).toBe('1');
      expect(final.json.error.code).toBe(UNAVAILABLE);
      expect(final.json.error.message).toMatch(/Redis/);
    }
    // A rate-limited call needs its counter: the same clear error, whichever node.
    for (const node of alive) {
      const limited = await callTool(nodeUrl(node), 'limited');
      expect([limited.status, limited.json.error?.code]).toEqual([503, UNAVAILABLE]);
    }
    // A 2025-era request needs the session's shared state: the same clear error.
    const legacy = await fetch(nodeUrl(alive[0]!), {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    const session = legacy.headers.get('mcp-session-id')!;
    const ping = await fetch(nodeUrl(alive[1]!), {
      method: 'POST',
      headers: { ...jsonHeaders(), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(ping.status).toBe(503);
    const refused = (await ping.json()) as { id: unknown; error: { code: number } };
    expect(refused.error.code).toBe(UNAVAILABLE);
    // The refusal carries the request's id in this era too (issue 25).
    expect(refused.id).toBe(2);

    await redis.restart();
    // Each node reconnects by itself (within about a second): `limited` needs Redis for its counter.
    let recovered = false;
    for (let i = 0; i < 100 && !recovered; i++) {
      await delay(100);
      const probes = await Promise.all(alive.map((n) => callTool(nodeUrl(n), 'limited')));
      recovered = probes.every((p) => p.status === 200);
    }
    expect(recovered).toBe(true);
    // The flow started before the outage completes now (its record was never written), once.
    const final = await callTool(balancer.url, 'place_order', {}, { requestState, inputResponses: YES });
    expect(final.status).toBe(200);
    expect(ranLines(final.json.result.structuredContent.flowId)).toHaveLength(1);
    // Pub/sub is back too: a stream on one node hears the other's update.
    const stream = await openListen(nodeUrl(alive[0]!), 'after-outage', { resourceSubscriptions: [MOTD] });
    try {
      await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      await callTool(nodeUrl(alive[1]!), 'touch');
      await stream.waitFor((m) => m.method === 'notifications/resources/updated');
    } finally {
      stream.close();
    }
    for (const node of alive) {
      expect(node.alive()).toBe(true);
      expect(node.output().match(/Redis is unreachable/g)).toHaveLength(1);
      expect(node.output()).toContain('Redis is reachable again');
    }
  });

  it('SIGKILL of the node running a final round: its claim lapses and the flow completes once on another node', async () => {
    const first = await callTool(balancer.url, 'slow_order');
    const requestState = first.json.result.requestState;
    const retry = () => callTool(balancer.url, 'slow_order', {}, { requestState, inputResponses: YES });
    const lost = retry();
    let holder: NodeProcess | undefined;
    for (let i = 0; i < 100 && !holder; i++) {
      await delay(50);
      holder = nodes.find((n) => n.alive() && n.output().includes('HOLDING '));
    }
    expect(holder).toBeDefined();
    const flowId = /HOLDING (\S+)/.exec(holder!.output())![1]!;
    holder!.child.kill('SIGKILL');
    expect((await lost).status).toBe(502); // nginx: the node died mid-request
    const started = Date.now();
    const final = await retry();
    expect(final.status).toBe(200);
    expect(final.json.result.structuredContent).toEqual({ flowId, node: expect.not.stringMatching(holder!.name) });
    // It waited for the dead node's claim to lapse (flowClaimTtlMs 3000, renewed every second: at least
    // 2 s after the kill), and not much longer.
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThan(1500);
    expect(waited).toBeLessThan(8000);
    expect(ranLines(flowId)).toHaveLength(1);
    rmSync(join(tmpdir(), `mocapi-slow-${flowId.replace(/[^\w-]/g, '_')}`), { force: true });
  });
});

function jsonHeaders(): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
}
