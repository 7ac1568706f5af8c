import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import { ElicitationContext, McpModule, McpRegistrar, McpTool } from '../../src/index.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { AppHeaderPrincipalSource } from '../mrtr/principal.fixtures.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { call, pollUntil, result, WITH_ELICITATION } from './tasks-wire.js';

// A task waiting for input is resumed by replaying its tool's handler, looked up again by name when
// the last answer arrives: a tool removed (or re-registered without taskSupport) meanwhile fails
// the task, which frees its caller's quota (one running task per caller here), instead of leaving
// it `working`.

@Injectable()
class ResumeTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'quick', description: 'Finishes at once', taskSupport: 'required' })
  quick(): string {
    return 'done';
  }

  /** Registered by each test under its own name, so removing it touches no other test. */
  async greet(): Promise<string> {
    const answer = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    return `Hello ${String(answer.content?.['name'])}`;
  }
}

function resumeModule(): DynamicModule {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'task-resume',
        version: '1.0.0',
        mrtr: { secrets: ['task-resume-secret-0123456789abcdef0123456789ab'] },
        principalSource: AppHeaderPrincipalSource,
        tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
        limits: { maxRunningTasksPerCaller: 1 },
      }),
    ],
    providers: [ResumeTools],
  })
  class ResumeModule {}
  return { module: ResumeModule };
}

describe.each(ADAPTERS)('resuming a task, on %s', (adapter) => {
  const logger = new CapturingLogger();
  let server: RunningApp;
  let registrar: McpRegistrar;
  let tools: ResumeTools;
  beforeAll(async () => {
    server = await startMrtrApp(resumeModule(), adapter, { logger });
    registrar = server.app.get(McpRegistrar);
    tools = server.app.get(ResumeTools);
  });
  afterAll(async () => {
    await server.close();
  });

  /** Starts `name` as `user` and waits until it asks for the name; resolves to the task id. */
  async function waitingTask(name: string, user: string): Promise<string> {
    registrar.addTool(tools, 'greet', { name, description: 'Greets after asking', taskSupport: 'required' });
    const created = result(await call(server.url, 'tools/call', { name }, { user, capabilities: WITH_ELICITATION }));
    expect(created.resultType).toBe('task');
    await pollUntil(server.url, created.taskId, (t) => t.status === 'input_required', user);
    return created.taskId;
  }

  const answer = (taskId: string, user: string) =>
    call(
      server.url,
      'tasks/update',
      { taskId, inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } } },
      { user },
    );

  it('completes a task by replaying its handler with the answers', async () => {
    const taskId = await waitingTask('greet_ok', 'ada');
    result(await answer(taskId, 'ada'));
    const done = await pollUntil(server.url, taskId, (t) => t.status === 'completed', 'ada');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Hello Ada' }]);
    expect(done.statusMessage).toBe('Completed');
  });

  it('fails the task (-32603) when its tool was removed before the last answer; the caller may start another', async () => {
    const taskId = await waitingTask('greet_removed', 'ben');
    expect(registrar.removeTool('greet_removed')).toBe(true);
    result(await answer(taskId, 'ben'));
    const failed = await pollUntil(server.url, taskId, (t) => t.status !== 'working', 'ben');
    expect(failed).toMatchObject({
      status: 'failed',
      statusMessage: 'The tool greet_removed of this task is no longer available',
      error: { code: -32603, message: 'The tool greet_removed of this task is no longer available' },
    });
    expect(result(await call(server.url, 'tools/call', { name: 'quick' }, { user: 'ben' })).resultType).toBe('task');
    expect(logger.errors).toEqual([]);
  });

  it('fails the task when its tool came back without taskSupport', async () => {
    const taskId = await waitingTask('greet_sync', 'cy');
    registrar.removeTool('greet_sync');
    registrar.addTool(tools, 'greet', { name: 'greet_sync', description: 'Now synchronous' });
    result(await answer(taskId, 'cy'));
    const failed = await pollUntil(server.url, taskId, (t) => t.status !== 'working', 'cy');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(logger.errors).toEqual([]);
  });
});
