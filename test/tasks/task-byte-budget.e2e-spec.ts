import { McpTaskStore } from '../../src/index.js';
import type { InMemoryTaskStore } from '../../src/task-store/in-memory-task.store.js';
import { McpTaskEvents } from '../../src/tasks/mcp-task-events.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { connectOfficialClient } from '../support/official-client.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { BUDGET, BudgetGates, budgetModule, expectBudgetRefusal, KEEP } from './task-byte-budget.fixtures.js';
import { call, pollUntil, result, TASKS, WITH_ELICITATION } from './tasks-wire.js';

// limits.maxStoredTaskBytesPerCaller with the in-memory task store, over HTTP on both adapters.
// Callers are told apart by the x-user header (AppHeaderPrincipalSource); no header is the
// anonymous caller, counted by its client address.

const ANONYMOUS = '';

/** A task of `tool` created as `user`; the raw answer. */
function startTask(url: string, tool: string, args: Record<string, unknown>, user: string, capabilities = TASKS) {
  return call(url, 'tools/call', { name: tool, arguments: args }, { user, capabilities });
}

/** Creates `count` tasks of `keep` as `user` and waits until each has completed. */
async function fill(url: string, user: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const created = result(await startTask(url, 'keep', KEEP, user));
    await pollUntil(url, created.taskId, (t) => t.status === 'completed', user);
  }
}

describe.each(ADAPTERS)('the per-caller byte budget of stored tasks, in memory, on %s', (adapter) => {
  const logger = new CapturingLogger();
  let server: RunningApp;
  let expiring: RunningApp;
  const storeOf = (app: RunningApp) => app.app.get(McpTaskStore) as InMemoryTaskStore;
  const bytesOf = (app: RunningApp, user: string) => storeOf(app).bytesOf(`principal:app:${user}`);

  beforeAll(async () => {
    server = await startMrtrApp(budgetModule({ ttlMs: 60_000 }), adapter, { logger });
    // Short-lived tasks, so the budget frees up within the test.
    expiring = await startMrtrApp(budgetModule({ ttlMs: 2500 }), adapter, { logger });
  });
  afterAll(async () => {
    await server?.close();
    await expiring?.close();
  });
  afterEach(() => {
    expect(logger.errors).toEqual([]);
  });

  it('refuses the task past a caller’s budget (-32050, 429, Retry-After); another caller is served; expiry frees it', async () => {
    const url = expiring.url;
    await fill(url, 'carol', 4);
    expect(bytesOf(expiring, 'carol')).toBeGreaterThan(4 * KEEP.blob.length);
    const retryAfterMs = expectBudgetRefusal(await startTask(url, 'keep', KEEP, 'carol'), 3);
    expect(retryAfterMs).toBeLessThanOrEqual(2500);
    expect(bytesOf(expiring, 'carol')).toBeLessThanOrEqual(BUDGET);

    expect(result(await startTask(url, 'keep', KEEP, 'bob')).resultType).toBe('task');

    await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 50));
    expect(result(await startTask(url, 'keep', KEEP, 'carol')).resultType).toBe('task');
  });

  it('lets concurrent creates of one caller take the budget and never more', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => startTask(server.url, 'keep', KEEP, 'dora')));
    const created = answers.filter((answer) => answer.status === 200);
    expect(created).toHaveLength(4);
    for (const answer of answers.filter((a) => a.status !== 200)) expectBudgetRefusal(answer, 60);
    expect(bytesOf(server, 'dora')).toBeLessThanOrEqual(BUDGET);
  });

  it('refuses with -32602 (400) a task that alone would take more than the whole budget', async () => {
    const refused = await startTask(server.url, 'keep', { blob: 'x'.repeat(BUDGET + 1000) }, 'hugo');
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual({
      code: -32602,
      message: expect.stringContaining('limits.maxStoredTaskBytesPerCaller'),
      data: { limit: 'maxStoredTaskBytesPerCaller', maxBytes: BUDGET },
    });
    expect(bytesOf(server, 'hugo')).toBe(0);
  });

  it('fails a task whose result or questions would pass the budget (-32603, data.limit) instead of keeping them', async () => {
    const url = server.url;
    await fill(url, 'erin', 3);
    // 30 KB fits the per-part bound (64 KiB) but not what is left of the budget.
    const created = result(await startTask(url, 'big_result', { bytes: 30_000 }, 'erin'));
    const failed = await pollUntil(url, created.taskId, (t) => t.status !== 'working', 'erin');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, data: { limit: 'maxStoredTaskBytesPerCaller', maxBytes: BUDGET } },
    });
    expect(failed.error.message).toContain('limits.maxStoredTaskBytesPerCaller');
    expect(failed.statusMessage).toBe(failed.error.message);
    expect(bytesOf(server, 'erin')).toBeLessThanOrEqual(BUDGET);
    expect(logger.warnings.some((line) => line.includes(`Task ${created.taskId} failed`))).toBe(true);
    // A result that fits is kept.
    const small = result(await startTask(url, 'big_result', { bytes: 1000 }, 'erin'));
    const done = await pollUntil(url, small.taskId, (t) => t.status !== 'working', 'erin');
    expect(done.status).toBe('completed');
    expect(done.result.content[0].text).toHaveLength(1000);
    // So do questions: the task cannot wait for answers it could not keep.
    const asking = result(await startTask(url, 'ask', { bytes: 20_000 }, 'erin', WITH_ELICITATION));
    const unasked = await pollUntil(url, asking.taskId, (t) => t.status !== 'working', 'erin');
    expect(unasked).toMatchObject({
      status: 'failed',
      error: { code: -32603, data: { limit: 'maxStoredTaskBytesPerCaller', maxBytes: BUDGET } },
    });
    expect(unasked.error.message).toContain("The task's questions would take");
    expect(bytesOf(server, 'erin')).toBeLessThanOrEqual(BUDGET);
  });

  it('refuses tasks/update answers that would pass the budget (429); the task waits, and smaller answers are taken', async () => {
    const url = server.url;
    await fill(url, 'fred', 4);
    const created = result(await startTask(url, 'ask', {}, 'fred', WITH_ELICITATION));
    const waiting = await pollUntil(url, created.taskId, (t) => t.status === 'input_required', 'fred');
    const [key] = Object.keys(waiting.inputRequests);
    const answer = (note: string) =>
      call(
        url,
        'tasks/update',
        { taskId: created.taskId, inputResponses: { [key!]: { action: 'accept', content: { note } } } },
        { user: 'fred', capabilities: WITH_ELICITATION },
      );
    expectBudgetRefusal(await answer('n'.repeat(10_000)), 60);
    expect(result(await call(url, 'tasks/get', { taskId: created.taskId }, { user: 'fred' })).status).toBe(
      'input_required',
    );
    expect(bytesOf(server, 'fred')).toBeLessThanOrEqual(BUDGET);
    expect(result(await answer('short')).resultType).toBe('complete');
    const done = await pollUntil(url, created.taskId, (t) => t.status === 'completed', 'fred');
    expect(done.result.content[0].text).toBe('noted 5');
  });

  it('drops a progress report that would pass the budget; the task goes on and completes', async () => {
    const url = server.url;
    await fill(url, 'gina', 4);
    const seen: string[] = [];
    const stop = server.app.get(McpTaskEvents).on((record) => void seen.push(record.statusMessage ?? ''));
    try {
      const created = result(await startTask(url, 'chatty', { label: 'gina', bytes: 10_000 }, 'gina'));
      // Reports are written one after the other: once the second shows, the first was handled.
      await pollUntil(url, created.taskId, (t) => t.statusMessage === 'Step 2', 'gina');
      expect(seen.some((message) => message.length >= 10_000)).toBe(false);
      expect(bytesOf(server, 'gina')).toBeLessThanOrEqual(BUDGET);
      server.app.get(BudgetGates).release('gina');
      expect((await pollUntil(url, created.taskId, (t) => t.status === 'completed', 'gina')).status).toBe('completed');
    } finally {
      stop();
    }
  });

  it('holds the anonymous caller too: a 2026-07-28 client is refused a task, a 2025-era client calls the tool directly', async () => {
    const url = server.url;
    await fill(url, ANONYMOUS, 4);
    expectBudgetRefusal(await startTask(url, 'keep', KEEP, ANONYMOUS), 60);

    // The official client pinned to 2026-07-28, declaring the tasks extension: the same refusal,
    // which it reports as the HTTP status and the body it was answered.
    const modern = await connectOfficialClient(url, { capabilities: TASKS });
    try {
      const refused = await modern.callTool({ name: 'keep', arguments: KEEP }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ data: { status: 429 } });
      const body = JSON.parse((refused as { data: { text: string } }).data.text);
      expect(body.error).toMatchObject({ code: -32050, data: { limit: 'maxStoredTaskBytesPerCaller' } });
    } finally {
      await modern.close();
    }

    // The official client with its default settings (2025-11-25): tasks are not served in that era,
    // the tool runs in the request and nothing is stored.
    const stored = storeOf(server).size;
    const legacy = await connectLegacyClient(url);
    try {
      const answered = await legacy.client.callTool({ name: 'keep', arguments: KEEP });
      expect(answered.content).toEqual([{ type: 'text', text: 'kept' }]);
    } finally {
      await legacy.close();
    }
    expect(storeOf(server).size).toBe(stored);
  });
});
