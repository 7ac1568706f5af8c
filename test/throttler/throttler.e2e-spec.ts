import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import { rpc, type RawResponse } from '../support/raw-mcp.js';
import { MCP_RATE_LIMITED } from '../../src/throttler/index.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { LIMIT, TTL_MS, throttledModule } from './throttler.fixtures.js';

let nextId = 1;

function call(
  url: string,
  name: string,
  user?: string,
  method = 'tools/call',
  extra: Record<string, unknown> = {},
): Promise<RawResponse> {
  return rpc(
    url,
    method,
    { name, arguments: {}, ...extra },
    { id: nextId++, capabilities: { elicitation: {} }, headers: user !== undefined ? { 'x-user': user } : {} },
  );
}

function expectRateLimited(response: RawResponse): void {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(Math.ceil(TTL_MS / 1000));
  expect(response.json.error).toEqual({
    code: MCP_RATE_LIMITED,
    message: expect.stringContaining('Rate limit exceeded'),
    data: { retryAfterMs: expect.any(Number) },
  });
  expect(response.json.error.data.retryAfterMs).toBeGreaterThan(0);
  expect(response.json.error.data.retryAfterMs).toBeLessThanOrEqual(TTL_MS);
}

describe.each(ADAPTERS)('rate limiting with @mocapi/nestjs/throttler (%s)', (adapter) => {
  let running: RunningApp;
  beforeAll(async () => (running = await startApp(throttledModule(), adapter)));
  afterAll(() => running.close());

  it('answers the call past the limit with 429, Retry-After and a JSON-RPC error; others are unaffected; the window recovers', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const ok = await call(running.url, 'ping', 'alice');
      expect(ok.status).toBe(200);
      expect(ok.json.result.content).toEqual([{ type: 'text', text: 'pong' }]);
    }
    expectRateLimited(await call(running.url, 'ping', 'alice'));

    // Another principal, and another tool of the same principal, keep their own counters.
    expect((await call(running.url, 'ping', 'bob')).status).toBe(200);
    expect((await call(running.url, 'other', 'alice')).status).toBe(200);

    // The window recovers (bounded wait: one ttl and a margin).
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 200));
    const again = await call(running.url, 'ping', 'alice');
    expect(again.status).toBe(200);
    expect(again.json.result.content).toEqual([{ type: 'text', text: 'pong' }]);
  });

  it('tracks the client address when there is no principal', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await call(running.url, 'other')).status).toBe(200);
    expectRateLimited(await call(running.url, 'other'));
  });

  it('honours @Throttle() on the method', async () => {
    for (let i = 0; i < 3; i++) expect((await call(running.url, 'roomy', 'carol')).status).toBe(200);
    expectRateLimited(await call(running.url, 'roomy', 'carol'));
  });

  it('honours @SkipThrottle() on the method and on the class', async () => {
    for (let i = 0; i < LIMIT + 3; i++) {
      expect((await call(running.url, 'free', 'dave')).status).toBe(200);
      expect((await call(running.url, 'class_free', 'dave')).status).toBe(200);
    }
  });

  it("counts each round of an elicitation flow: a flow's retry is a call", async () => {
    const first = await call(running.url, 'asks', 'gina');
    expect(first.json.result.resultType).toBe('input_required');
    const [key] = Object.keys(first.json.result.inputRequests);
    const retry = await call(running.url, 'asks', 'gina', 'tools/call', {
      requestState: first.json.result.requestState,
      inputResponses: { [key!]: { action: 'accept', content: { ok: true } } },
    });
    expect(retry.json.result.content).toEqual([{ type: 'text', text: 'accept' }]);
    expectRateLimited(await call(running.url, 'asks', 'gina'));
  });

  it('limits prompts/get as well', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await call(running.url, 'greet', 'erin', 'prompts/get')).status).toBe(200);
    expectRateLimited(await call(running.url, 'greet', 'erin', 'prompts/get'));
  });

  it('limits tasks/get, tasks/update and tasks/cancel like tools/call: per caller, per method and per task, same error, the request id kept', async () => {
    const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const taskCall = (method: string, params: Record<string, unknown>, user: string) => {
      const id = nextId++;
      const sent = rpc(running.url, method, params, { id, capabilities: TASKS, headers: { 'x-user': user } });
      return sent.then((response) => {
        expect(response.json.id).toBe(id);
        return response;
      });
    };
    const created = await taskCall('tools/call', { name: 'slow_task', arguments: {} }, 'hana');
    const taskId = created.json.result.taskId as string;
    expect(typeof taskId).toBe('string');
    for (let i = 0; i < LIMIT; i++) {
      expect((await taskCall('tasks/get', { taskId }, 'hana')).json.result.status).toBe('working');
    }
    expectRateLimited(await taskCall('tasks/get', { taskId }, 'hana'));
    for (let i = 0; i < LIMIT; i++) {
      expect((await taskCall('tasks/update', { taskId, inputResponses: {} }, 'hana')).status).toBe(200);
    }
    expectRateLimited(await taskCall('tasks/update', { taskId, inputResponses: {} }, 'hana'));
    // Another caller keeps its own counter (its tasks/get of someone else's task is simply not found).
    expect((await taskCall('tasks/get', { taskId }, 'ivan')).json.error.code).toBe(-32602);
    // tasks/cancel counts apart from tasks/get.
    expect((await taskCall('tasks/cancel', { taskId }, 'hana')).status).toBe(200);
    // Each task has its own counter, as each tool has: polling a second task is not throttled.
    const second = await taskCall('tools/call', { name: 'slow_task', arguments: {} }, 'hana');
    const secondId = second.json.result.taskId as string;
    expect((await taskCall('tasks/get', { taskId: secondId }, 'hana')).json.result.status).toBe('working');
  });

  it('counts a task method per task whatever else its params carry (a changing `name` is no fresh counter)', async () => {
    const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const taskCall = (method: string, params: Record<string, unknown>) =>
      rpc(running.url, method, params, { id: nextId++, capabilities: TASKS, headers: { 'x-user': 'kira' } });
    const created = await taskCall('tools/call', { name: 'slow_task', arguments: {} });
    const taskId = created.json.result.taskId as string;
    for (let i = 0; i < LIMIT; i++) {
      expect((await taskCall('tasks/get', { taskId, name: `decoy-${i}` })).json.result.status).toBe('working');
    }
    expectRateLimited(await taskCall('tasks/get', { taskId, name: 'decoy-last' }));
    expect((await taskCall('tasks/cancel', { taskId })).status).toBe(200);
  });

  it('2025-era sessions: the same JSON-RPC error, with HTTP 200 like every JSON-RPC error there', async () => {
    const wire = await LegacyWire.open(running.url, {}, { 'x-user': 'frank' });
    for (let i = 0; i < LIMIT; i++) {
      const ok = await wire.request('tools/call', { name: 'ping', arguments: {} });
      expect(ok.json.result.content).toEqual([{ type: 'text', text: 'pong' }]);
    }
    const limited = await wire.request('tools/call', { name: 'ping', arguments: {} });
    expect(limited.status).toBe(200);
    expect(limited.json.error).toMatchObject({ code: MCP_RATE_LIMITED, data: { retryAfterMs: expect.any(Number) } });
    await wire.delete();
  });
});
