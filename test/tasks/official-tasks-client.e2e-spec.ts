import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ADAPTERS, type AdapterKind, type RunningApp, startApp } from '../support/start-app.js';
import { OfficialClientProbe, officialClientModule } from './official-client.fixtures.js';

// The official tasks client (@modelcontextprotocol/ext-tasks 0.2.2, on @modelcontextprotocol/client
// pinned to 2026-07-28) against our server, run as a plain Node process (clients/ext-tasks-client.mjs):
// it validates a finished task's result as a 2026-07-28 CallToolResult, resultType required.

const CLIENT = fileURLToPath(new URL('./clients/ext-tasks-client.mjs', import.meta.url));
const run = promisify(execFile);

type Scenario = 'settle' | 'cancel' | 'input' | 'mute' | 'notify';

async function official(url: string, scenario: Scenario, ...rest: string[]): Promise<Record<string, any>> {
  const { stdout } = await run(process.execPath, [CLIENT, url, scenario, ...rest], { timeout: 20_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, any>;
}

/** Each status once, in the order it first appeared. */
function firstSeen(statuses: string[]): string[] {
  return [...new Set(statuses)];
}

/** Consecutive repeats dropped: one entry per change of status. */
function changes(statuses: string[]): string[] {
  return statuses.filter((status, i) => status !== statuses[i - 1]);
}

/** Waits (bounded) until `check` passes: the handler's abort may land just after the client is told. */
async function eventually(check: () => void, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe.each(ADAPTERS)('the official tasks client (ext-tasks 0.2.2), on %s', (adapter: AdapterKind) => {
  let server: RunningApp;
  // This one suggests polling every 10 minutes: within a test, the client learns of a change only
  // from notifications/tasks.
  let quiet: RunningApp;
  beforeAll(async () => {
    server = await startApp(officialClientModule(50), adapter);
    quiet = await startApp(officialClientModule(600_000), adapter);
  });
  afterAll(async () => {
    await server?.close();
    await quiet?.close();
  });

  it('creates a task and settles it with a result that decodes', async () => {
    expect(await official(server.url, 'settle')).toEqual({
      status: 'completed',
      result: { resultType: 'complete', content: [{ type: 'text', text: 'report ready' }] },
    });
  });

  it('cancels a running task: the outcome says cancelled and the handler is aborted', async () => {
    const observed = await official(server.url, 'cancel');
    expect(observed).toEqual({ taskId: expect.any(String), status: 'cancelled' });
    const probe = server.app.get(OfficialClientProbe);
    await eventually(() => expect(probe.aborted.has(observed.taskId as string)).toBe(true));
  });

  it('routes the question a task asks to the application, answers it with tasks/update, and settles', async () => {
    const observed = await official(server.url, 'input', 'March');
    expect(observed.kind).toBe('task');
    expect(observed.asked).toEqual([
      {
        message: 'Publish the March report?',
        scope: 'task',
        delivery: 'task-update',
        taskId: observed.taskId,
        inputId: expect.any(String),
      },
    ]);
    expect(observed.sent[0]).toBe('tools/call');
    expect(observed.sent.filter((method: string) => method === 'tasks/update')).toHaveLength(1);
    expect(observed.status).toBe('completed');
    expect(observed.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'The March report is published' }],
    });
  });

  it('sends a declined question back the same way: the task goes on with the refusal', async () => {
    const observed = await official(server.url, 'input', 'April');
    expect(observed.asked).toEqual([expect.objectContaining({ message: 'Publish the April report?', scope: 'task' })]);
    expect(observed.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'The April report stays a draft' }],
    });
  });

  it('fails a task that asks a client which did not declare elicitation, and the client decodes why', async () => {
    const observed = await official(server.url, 'mute', 'June');
    expect(observed).toEqual({
      asked: [],
      status: 'failed',
      code: -32021,
      message: 'The client did not declare a capability this request needs',
    });
  });

  it('follows notifications/tasks: working, input_required, then completed, for the same task', async () => {
    const observed = await official(quiet.url, 'notify');
    const { taskId } = observed;
    // What the server pushed on the host's subscriptions/listen stream, for this task only.
    expect(observed.pushed.length).toBeGreaterThan(0);
    for (const notification of observed.pushed) expect(notification.taskId).toBe(taskId);
    const pushed = observed.pushed.map((n: { status: string }) => n.status);
    expect(changes(pushed)).toEqual(['working', 'input_required', 'working', 'completed']);
    // A finished task does not keep its last progress text.
    expect(observed.pushed.at(-1).statusMessage).toBe('Completed');
    // What the package made of it: its task events, in order, and no poll at all (the server
    // suggested one every 10 minutes), so the notifications drove the client to the end.
    expect(firstSeen(observed.seen)).toEqual(['working', 'input_required', 'completed']);
    expect(observed.seen.at(-1)).toBe('completed');
    expect(observed.seen.filter((status: string) => status === 'completed')).toHaveLength(1);
    expect(observed.polls).toBe(0);
    expect(observed.status).toBe('completed');
    expect(observed.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Covers counted, no-shows included' }],
    });
  });
});
