import type { ElicitResult } from '@modelcontextprotocol/client';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { call, eventually, newId, pollUntil, result, TASKS, WITH_ELICITATION } from './tasks-wire.js';
import { openSse } from '../support/sse-stream.js';
import type { McpAuditEvent } from '../../src/index.js';
import { ADAPTERS, type AdapterKind, type RunningApp, startApp } from '../support/start-app.js';
import { TaskProbe, tasksModule } from './tasks.fixtures.js';

// The official @modelcontextprotocol/client 2.4.0 has no runtime for the 2026-07-28 tasks extension
// (its task types are 2025-11-25 vocabulary, and it refuses tasks/get toward a 2026-07-28 server
// locally), so the task flows are driven on the wire with hand-built requests; the official client
// checks what a client without the extension gets.

describe.each(ADAPTERS)('Tasks extension (io.modelcontextprotocol/tasks), on %s', (adapter: AdapterKind) => {
  let server: RunningApp;
  let probe: TaskProbe;
  const audited: McpAuditEvent[] = [];
  beforeAll(async () => {
    server = await startApp(
      tasksModule(undefined, { auditSink: { record: (event) => void audited.push(event) } }),
      adapter,
    );
    probe = server.app.get(TaskProbe);
  });
  afterAll(async () => {
    await server.close();
  });

  it('advertises the extension in server/discover', async () => {
    const discovered = result(await call(server.url, 'server/discover', {}));
    expect(discovered.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(discovered.capabilities.tasks).toBeUndefined();
  });

  it('runs a tool as a task that reports progress (statusMessage) and completes with its result', async () => {
    const created = result(await call(server.url, 'tools/call', { name: 'build_report', arguments: { label: 'q3' } }));
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 50 });
    expect(created.requestState).toBeUndefined();

    const working = await pollUntil(server.url, created.taskId, (t) => t.statusMessage?.startsWith('Step 1 of 2'));
    expect(working).toMatchObject({ resultType: 'complete', status: 'working', taskId: created.taskId });
    expect(working.result).toBeUndefined();

    probe.gate('q3').release();
    const done = await pollUntil(server.url, created.taskId, (t) => t.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Report q3 is ready' }]);
    expect(done.result.isError).toBeUndefined();
    // The result in the 2026-07-28 shape, as the tool's synchronous answer has it.
    expect(done.result.resultType).toBe('complete');
    expect(done.statusMessage).toBe('Completed');

    // Task methods go through the dispatcher: audited like any request, the creation with its task id.
    await eventually(() => audited.some((e) => e.method === 'tasks/get' && e.principal === 'app:alice'));
    expect(audited.find((e) => e.method === 'tools/call' && e.target === 'build_report')?.outcome).toEqual({
      kind: 'task',
      taskId: created.taskId,
    });
  });

  it('cancels a running task: empty ack, status cancelled, and the handler signal aborted', async () => {
    const created = result(await call(server.url, 'tools/call', { name: 'long_job', arguments: { label: 'c1' } }));
    await eventually(() => probe.started.has('c1'));

    const ack = result(await call(server.url, 'tasks/cancel', { taskId: created.taskId }));
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(ack.resultType).toBe('complete');

    await eventually(() => probe.aborted.has('c1'));
    expect(probe.aborted.get('c1')).toBe('The task was cancelled');
    const task = result(await call(server.url, 'tasks/get', { taskId: created.taskId }));
    expect(task.status).toBe('cancelled');
    expect(task.result).toBeUndefined();
    // Cancelling a finished task is the same empty ack (idempotent).
    expect(result(await call(server.url, 'tasks/cancel', { taskId: created.taskId })).resultType).toBe('complete');
  });

  it('moves an eliciting task to input_required twice and completes it after the tasks/update answers', async () => {
    const runsBefore = probe.runs;
    const created = result(
      await call(server.url, 'tools/call', { name: 'two_questions' }, { capabilities: WITH_ELICITATION }),
    );
    const first = await pollUntil(server.url, created.taskId, (t) => t.status === 'input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['elicit-1']);
    expect(first.inputRequests['elicit-1'].method).toBe('elicitation/create');
    expect(first.requestState).toBeUndefined();

    // An unknown key is ignored (still acknowledged), the task keeps waiting.
    const ignored = result(
      await call(server.url, 'tasks/update', {
        taskId: created.taskId,
        inputResponses: { nope: { action: 'accept' } },
      }),
    );
    expect(ignored.resultType).toBe('complete');
    expect(result(await call(server.url, 'tasks/get', { taskId: created.taskId })).status).toBe('input_required');

    const ack = result(
      await call(server.url, 'tasks/update', {
        taskId: created.taskId,
        inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
      }),
    );
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    const second = await pollUntil(
      server.url,
      created.taskId,
      (t) => t.status === 'input_required' && 'elicit-2' in t.inputRequests,
    );
    expect(Object.keys(second.inputRequests)).toEqual(['elicit-2']);
    expect(second.inputRequests['elicit-2'].params.message).toBe('Deploy as Ada?');

    await call(server.url, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { 'elicit-2': { action: 'accept', content: { confirm: true } } },
    });
    const done = await pollUntil(server.url, created.taskId, (t) => t.status === 'completed');
    expect(done.result.content[0].text).toBe('Deployed by Ada');
    // First run, then one replay per answered round (the same replay engine as a multi round-trip retry).
    expect(probe.runs - runsBefore).toBe(3);
  });

  it('asks again, under a new key, a question whose answer did not fit its schema (keys are never reused)', async () => {
    const created = result(
      await call(server.url, 'tools/call', { name: 'two_questions' }, { capabilities: WITH_ELICITATION }),
    );
    await pollUntil(server.url, created.taskId, (t) => t.status === 'input_required');
    await call(server.url, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { 'elicit-1': { action: 'accept', content: { name: 42 } } },
    });
    const again = await pollUntil(
      server.url,
      created.taskId,
      (t) => t.status === 'input_required' && !('elicit-1' in t.inputRequests),
    );
    expect(Object.keys(again.inputRequests)).toEqual(['elicit-1~2']);
    expect(again.inputRequests['elicit-1~2'].params.message).toBe('Your name?');
    // The old key is spent: an answer under it is ignored.
    await call(server.url, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Old' } } },
    });
    expect(result(await call(server.url, 'tasks/get', { taskId: created.taskId })).inputRequests).toHaveProperty(
      'elicit-1~2',
    );
    await call(server.url, 'tasks/cancel', { taskId: created.taskId });
  });

  it('answers questions asked before McpTaskContext.start() synchronously, then continues as a task', async () => {
    const first = await call(
      server.url,
      'tools/call',
      { name: 'deploy_after_confirm' },
      { capabilities: WITH_ELICITATION },
    );
    const round = result(first);
    expect(round.resultType).toBe('input_required');
    expect(round.taskId).toBeUndefined();
    const [key] = Object.keys(round.inputRequests);
    const second = result(
      await call(
        server.url,
        'tools/call',
        {
          name: 'deploy_after_confirm',
          requestState: round.requestState,
          inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } },
        },
        { capabilities: WITH_ELICITATION },
      ),
    );
    expect(second).toMatchObject({ resultType: 'task', status: expect.any(String) });
    expect(second.requestState).toBeUndefined();
    const done = await pollUntil(server.url, second.taskId, (t) => t.status === 'completed');
    expect(done.result.content[0].text).toBe(`Deployed in task ${second.taskId}`);
  });

  it('McpTaskContext.start() starts a task only for a client that declared the extension', async () => {
    const sync = result(await call(server.url, 'tools/call', { name: 'maybe_task' }, { capabilities: {} }));
    expect(sync.resultType).toBe('complete');
    expect(sync.content[0].text).toBe('finished synchronously');
    const created = result(await call(server.url, 'tools/call', { name: 'maybe_task' }));
    expect(created.resultType).toBe('task');
    const done = await pollUntil(server.url, created.taskId, (t) => t.status === 'completed');
    expect(done.result.content[0].text).toBe('finished as a task');
  });

  it('keeps a task to the principal that created it: another one can neither see, answer nor cancel it', async () => {
    const created = result(
      await call(server.url, 'tools/call', { name: 'long_job', arguments: { label: 'own' } }, { user: 'alice' }),
    );
    for (const [method, params] of [
      ['tasks/get', { taskId: created.taskId }],
      ['tasks/update', { taskId: created.taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId: created.taskId }],
    ] as const) {
      const refused = await call(server.url, method, params, { user: 'bob' });
      expect(refused.json.error.code).toBe(-32602);
      expect(refused.json.error.message).toMatch(/not found/i);
    }
    expect(probe.aborted.has('own')).toBe(false);
    expect(result(await call(server.url, 'tasks/get', { taskId: created.taskId }, { user: 'alice' })).status).toBe(
      'working',
    );
    // An unknown task id gets the very same answer: bob learns nothing.
    const unknown = await call(server.url, 'tasks/get', { taskId: 'no-such-task' }, { user: 'bob' });
    expect(unknown.json.error.code).toBe(-32602);
    await call(server.url, 'tasks/cancel', { taskId: created.taskId }, { user: 'alice' });
  });

  it('pushes notifications/tasks on subscriptions/listen, for the listener’s own tasks only', async () => {
    const created = result(await call(server.url, 'tools/call', { name: 'build_report', arguments: { label: 'n1' } }));
    const listen = await openSse(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'tasks-sub',
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: [created.taskId, 'someone-elses'] }, _meta: envelope(TASKS) },
      },
      { ...mcpHeaders('subscriptions/listen'), 'x-user': 'alice' },
    );
    try {
      const ack = await listen.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      expect(ack.params.notifications).toEqual({ taskIds: [created.taskId] });
      probe.gate('n1').release();
      const completed = await listen.waitFor(
        (m) => m.method === 'notifications/tasks' && m.params.status === 'completed',
      );
      expect(completed.params).toMatchObject({
        taskId: created.taskId,
        result: { content: [{ text: 'Report n1 is ready' }] },
      });
      expect(completed.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'tasks-sub' });
    } finally {
      listen.close();
    }
  });

  it('gates the task surface on the extension: -32021 without it, sync results for optional tools', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const refused = await call(server.url, method, { taskId: 'x', inputResponses: {} }, { capabilities: {} });
      expect(refused.json.error.code).toBe(-32021);
    }
    const required = await call(
      server.url,
      'tools/call',
      { name: 'long_job', arguments: { label: 'x' } },
      {
        capabilities: {},
      },
    );
    expect(required.status).toBe(400);
    expect(required.json.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    expect(probe.started.has('x')).toBe(false);
  });

  it('checks Mcp-Name against the task id (-32020)', async () => {
    const body = {
      jsonrpc: '2.0',
      id: newId(),
      method: 'tasks/get',
      params: { taskId: 'abc', _meta: envelope(TASKS) },
    };
    const mismatched = await post(server.url, body, { ...mcpHeaders('tasks/get', 'other'), 'x-user': 'alice' });
    expect(mismatched.status).toBe(400);
    expect(mismatched.json.error.code).toBe(-32020);
  });

  it('a 2025-era client (the official client, default settings) calls task tools synchronously', async () => {
    const legacy = await connectLegacyClient(server.url, {
      onElicit: (params): ElicitResult =>
        String(params.message) === 'Your name?'
          ? { action: 'accept', content: { name: 'Grace' } }
          : { action: 'accept', content: { confirm: true } },
    });
    try {
      const outcome = await legacy.client.callTool({ name: 'two_questions', arguments: {} });
      expect(outcome.content).toEqual([{ type: 'text', text: 'Deployed by Grace' }]);
      expect(legacy.asked).toHaveLength(2);
      // The 2025-era leg answers a missing capability as an isError result naming it.
      const refused = await legacy.client.callTool({ name: 'long_job', arguments: { label: 'legacy' } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('io.modelcontextprotocol/tasks');
      expect(probe.started.has('legacy')).toBe(false);
    } finally {
      await legacy.close();
    }
  });

  it('the official client (no tasks extension) gets a task-supporting optional tool as a plain result', async () => {
    const client = await connectOfficialClient(server.url);
    try {
      probe.gate('official').release();
      const outcome = await client.callTool({ name: 'build_report', arguments: { label: 'official' } });
      expect(outcome.content).toEqual([{ type: 'text', text: 'Report official is ready' }]);
      await expect(client.callTool({ name: 'long_job', arguments: { label: 'official' } })).rejects.toMatchObject({
        code: -32021,
      });
    } finally {
      await client.close();
    }
  });
});

describe.each(ADAPTERS)('Tasks past their ttlMs, on %s', (adapter: AdapterKind) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(tasksModule({ ttlMs: 400, pollIntervalMs: 50 }), adapter);
  });
  afterAll(async () => {
    await server.close();
  });

  it('aborts the running handler and forgets the task once its ttlMs has passed', async () => {
    const probe = server.app.get(TaskProbe);
    const created = result(await call(server.url, 'tools/call', { name: 'long_job', arguments: { label: 'ttl' } }));
    expect(created.ttlMs).toBe(400);
    expect(result(await call(server.url, 'tasks/get', { taskId: created.taskId })).status).toBe('working');
    await eventually(() => probe.aborted.has('ttl'));
    expect(probe.aborted.get('ttl')).toBe('The task outlived its ttlMs');
    await eventually(() => Date.now() >= Date.parse(created.createdAt) + 400);
    const gone = await call(server.url, 'tasks/get', { taskId: created.taskId });
    expect(gone.json.error.code).toBe(-32602);
  });
});
