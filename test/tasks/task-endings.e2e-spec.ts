import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import { ElicitationContext, McpError, McpModule, McpTaskContext, McpTool } from '../../src/index.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { AppHeaderPrincipalSource } from '../mrtr/principal.fixtures.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { call, pollUntil, result, WITH_ELICITATION } from './tasks-wire.js';

// How a task ends when its handler does something the store must not keep, or cannot: each task
// must reach a final status (a task left `working` holds its caller's quota until it expires), and
// nothing a client sends is kept past limits.maxTaskPayloadBytes. One running task per caller, so a
// task that never ends shows as a refused next one.

const MAX_BYTES = 65_536;

@Injectable()
class EndingTools {
  constructor(
    private readonly task: McpTaskContext,
    private readonly elicitation: ElicitationContext,
  ) {}

  @McpTool({ name: 'quick', description: 'Finishes at once', taskSupport: 'required' })
  quick(): string {
    return 'done';
  }

  @McpTool({ name: 'not_json', description: 'Answers a value JSON cannot carry', taskSupport: 'required' })
  notJson(): unknown {
    return { content: [{ type: 'text', text: 'counted' }], structuredContent: { count: 10n } };
  }

  @McpTool({ name: 'big_error', description: 'Fails with a large error payload', taskSupport: 'required' })
  bigError(): never {
    throw new McpError(-32000, 'Upstream refused', { echo: 'x'.repeat(100_000) });
  }

  @McpTool({
    name: 'start_twice',
    description: 'Calls start() twice at once',
    taskSupport: 'required',
    taskCreation: 'handler',
  })
  async startTwice(): Promise<string> {
    await Promise.all([this.task.start(), this.task.start()]);
    return 'started';
  }

  @McpTool({ name: 'ask_name', description: 'Asks for a name', taskSupport: 'required' })
  async askName(): Promise<string> {
    const answer = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    return `Hello ${String(answer.content?.['name'])}`;
  }
}

function endingsModule(): DynamicModule {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'task-endings',
        version: '1.0.0',
        mrtr: { secrets: ['task-endings-secret-0123456789abcdef0123456789'] },
        principalSource: AppHeaderPrincipalSource,
        tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
        limits: { maxRunningTasksPerCaller: 1, maxTaskPayloadBytes: MAX_BYTES },
      }),
    ],
    providers: [EndingTools],
  })
  class EndingsModule {}
  return { module: EndingsModule };
}

describe.each(ADAPTERS)('how tasks end, on %s', (adapter) => {
  const logger = new CapturingLogger();
  let server: RunningApp;
  beforeAll(async () => {
    server = await startMrtrApp(endingsModule(), adapter, { logger });
  });
  afterAll(async () => {
    await server.close();
  });

  const start = async (name: string, user: string) =>
    result(await call(server.url, 'tools/call', { name }, { user, capabilities: WITH_ELICITATION }));
  const ended = (taskId: string, user: string) => pollUntil(server.url, taskId, (t) => t.status !== 'working', user);

  it('fails a task whose result JSON cannot carry, instead of leaving it working; the caller may start another', async () => {
    const task = await ended((await start('not_json', 'nina')).taskId, 'nina');
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(task.error.message).toContain('cannot be sent as JSON');
    expect((await start('quick', 'nina')).resultType).toBe('task');
    expect(logger.errors).toEqual([]);
  });

  it('fails a task whose error payload is over maxTaskPayloadBytes instead of keeping it', async () => {
    const task = await ended((await start('big_error', 'omar')).taskId, 'omar');
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: -32603, data: { limit: 'maxTaskPayloadBytes', maxBytes: MAX_BYTES } },
    });
    expect(JSON.stringify(task).length).toBeLessThan(2000);
  });

  it('creates one task when the handler calls start() twice at once, and leaves none behind', async () => {
    const task = await ended((await start('start_twice', 'pia')).taskId, 'pia');
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'started' }] } });
    expect((await start('quick', 'pia')).resultType).toBe('task');
  });

  it('refuses tasks/update answers over maxTaskPayloadBytes (-32602, 400, its id); the task still takes a fitting one', async () => {
    const created = await start('ask_name', 'quin');
    await pollUntil(server.url, created.taskId, (t) => t.status === 'input_required', 'quin');
    const oversized = { 'elicit-1': { action: 'accept', content: { name: 'x'.repeat(70_000) } } };
    const refused = await call(
      server.url,
      'tasks/update',
      { taskId: created.taskId, inputResponses: oversized },
      {
        user: 'quin',
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      error: {
        code: -32602,
        message: expect.stringContaining('limits.maxTaskPayloadBytes'),
        data: { limit: 'maxTaskPayloadBytes', maxBytes: MAX_BYTES },
      },
    });
    expect(result(await call(server.url, 'tasks/get', { taskId: created.taskId }, { user: 'quin' })).status).toBe(
      'input_required',
    );
    const fitting = { 'elicit-1': { action: 'accept', content: { name: 'Quin' } } };
    result(
      await call(server.url, 'tasks/update', { taskId: created.taskId, inputResponses: fitting }, { user: 'quin' }),
    );
    const done = await pollUntil(server.url, created.taskId, (t) => t.status === 'completed', 'quin');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Hello Quin' }]);
  });
});

describe.each(ADAPTERS)('client capabilities a task keeps, on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startMrtrApp(endingsModule(), adapter);
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a task call whose client capabilities are over maxTaskPayloadBytes (they are kept with the task)', async () => {
    const capabilities = { ...WITH_ELICITATION, experimental: { padding: 'x'.repeat(70_000) } };
    const refused = await call(server.url, 'tools/call', { name: 'quick' }, { user: 'rhea', capabilities });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual({
      code: -32602,
      message: expect.stringContaining('limits.maxTaskPayloadBytes'),
      data: { limit: 'maxTaskPayloadBytes', maxBytes: MAX_BYTES },
    });
    expect(result(await call(server.url, 'tools/call', { name: 'quick' }, { user: 'rhea' })).resultType).toBe('task');
  });
});
