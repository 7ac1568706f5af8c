import { McpRedisModule } from '../../src/redis/index.js';
import { rpc, type RawResponse } from '../support/raw-mcp.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import { pollUntil, TASKS } from '../tasks/tasks-wire.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { effects, idempotencyModule } from './idempotency.fixtures.js';

/**
 * Idempotent tools/call across two nodes sharing one redis-server (@mocapi/nestjs/redis): a retry
 * that reaches the other node gets the first node's answer — the same result, the same task — and
 * the other node refuses the key with other arguments. Each adapter runs its own pair of nodes.
 */

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

let run = 0;
const fresh = (what: string) => `${what}-redis-${++run}-${Date.now()}`;

const call = (url: string, params: Record<string, unknown>, capabilities = {}): Promise<RawResponse> =>
  rpc(url, 'tools/call', params, { capabilities, headers: { 'x-user': 'alice' } });

describe.each(ADAPTERS)('idempotent tools/call on Redis, two nodes (%s)', (adapter) => {
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    const node = () =>
      startApp(
        idempotencyModule([McpRedisModule.forRoot({ connection: redis.url, keyPrefix: `idem-${adapter}:` })]),
        adapter,
      );
    [a, b] = await Promise.all([node(), node()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a plain call retried on the other node (2026-07-28) gets the first result; the side effect ran once', async () => {
    const label = fresh('plain');
    const params = { name: 'charge', arguments: { label, amount: 9 }, idempotencyKey: fresh('key') };
    const first = await call(a.url, params);
    const again = await call(b.url, params);
    expect(first.json.result.content).toEqual([{ type: 'text', text: `charged 9 for ${label}: effect #1` }]);
    expect(again.json.result.content).toEqual(first.json.result.content);
    expect(effects.get(label)).toBe(1);
  });

  it('a 2025-era call (official client, default settings) retried on the other node runs once', async () => {
    const label = fresh('legacy');
    const params = { name: 'charge', arguments: { label }, idempotencyKey: fresh('key') };
    const [onA, onB] = [await connectLegacyClient(a.url), await connectLegacyClient(b.url)];
    try {
      const first = await onA.client.callTool(params as never);
      const again = await onB.client.callTool(params as never);
      expect(again.content).toEqual(first.content);
      expect(effects.get(label)).toBe(1);
    } finally {
      await onA.close();
      await onB.close();
    }
  });

  it('two calls with one key create one task, whichever node they reach; another key another', async () => {
    const label = fresh('task');
    const key = fresh('key');
    const params = { name: 'charge_task', arguments: { label }, idempotencyKey: key };
    const first = (await call(a.url, params, TASKS)).json.result;
    const again = (await call(b.url, params, TASKS)).json.result;
    expect(first.resultType).toBe('task');
    expect(again.taskId).toBe(first.taskId);
    const done = await pollUntil(b.url, first.taskId, (task) => task.status === 'completed');
    expect(done.result.structuredContent).toMatchObject({ operationId: first.taskId, effect: 1 });
    expect(effects.get(label)).toBe(1);

    const other = (await call(b.url, { ...params, idempotencyKey: fresh('key') }, TASKS)).json.result;
    expect(other.taskId).toEqual(expect.any(String));
    expect(other.taskId).not.toBe(first.taskId);
  });

  it('the other node refuses the key with other arguments (idempotency_key_conflict) and runs nothing', async () => {
    const label = fresh('conflict');
    const key = fresh('key');
    await call(a.url, { name: 'charge', arguments: { label, amount: 1 }, idempotencyKey: key });
    const refused = await call(b.url, { name: 'charge', arguments: { label, amount: 2 }, idempotencyKey: key });
    expect(refused.json.error).toMatchObject({
      code: -32602,
      data: { type: 'idempotency_key_conflict', idempotencyKey: key },
    });
    expect(effects.get(label)).toBe(1);
  });

  it('concurrent calls with one key on both nodes: one runs, the other is told it is in progress or gets its result', async () => {
    const label = fresh('race');
    const params = { name: 'charge', arguments: { label }, idempotencyKey: fresh('key') };
    const answers = await Promise.all([
      call(a.url, params),
      call(b.url, params),
      call(a.url, params),
      call(b.url, params),
    ]);
    for (const answer of answers) {
      if (answer.json.error) expect(answer.json.error.data).toMatchObject({ type: 'idempotency_key_in_progress' });
      else expect(answer.json.result.content[0].text).toBe(`charged 0 for ${label}: effect #1`);
    }
    expect(effects.get(label)).toBe(1);
  });
});
