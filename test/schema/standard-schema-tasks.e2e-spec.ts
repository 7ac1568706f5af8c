// A zod tool run as a task: its first run gets the value zod answers, and so does its replay after
// tasks/update (the task's replay validates the stored arguments again, waiting for the library
// when its schema validates asynchronously).
import { Injectable, Module } from '@nestjs/common';
import { z } from 'zod';
import { ElicitationContext, McpModule, McpTool } from '../../src/index.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import { call, pollUntil, result, WITH_ELICITATION } from '../tasks/tasks-wire.js';

const Order = z.object({
  item: z.string().transform((s) => s.trim().toUpperCase()),
  quantity: z.number().int().min(1).default(1),
});

/** The input each run of the handler received. */
const runs: unknown[] = [];

@Injectable()
class OrderTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ description: 'Orders after a confirmation', input: Order, taskSupport: 'optional' })
  async order(input: z.infer<typeof Order>): Promise<string> {
    runs.push(input);
    const answer = await this.elicitation.elicit(`Order ${input.quantity} ${input.item}?`, (s) => s.boolean('confirm'));
    return answer.action === 'accept' && answer.content.confirm
      ? `Ordered ${input.quantity} ${input.item}`
      : 'Cancelled';
  }
}

/** A schema that only validates asynchronously (zod's async refine). */
const Reservation = z.object({ guest: z.string() }).refine(async (value) => value.guest.length > 1, 'too short');

@Injectable()
class ReservationTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({
    description: 'Reserves after a confirmation',
    input: Reservation,
    inputSchema: { type: 'object', properties: { guest: { type: 'string' } }, required: ['guest'] },
    taskSupport: 'optional',
  })
  async reserve(input: z.infer<typeof Reservation>): Promise<string> {
    runs.push(input);
    const answer = await this.elicitation.elicit(`Reserve for ${input.guest}?`, (s) => s.boolean('confirm'));
    return answer.action === 'accept' && answer.content.confirm ? `Reserved for ${input.guest}` : 'Cancelled';
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'schema-tasks',
      version: '0.0.1',
      mrtr: { secrets: ['schema-tasks-secret-0123456789abcdef0123456789'] },
      tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
    }),
  ],
  providers: [OrderTools, ReservationTools],
})
class SchemaTasksModule {}

describe.each(ADAPTERS)('a Standard Schema tool as a task on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(SchemaTasksModule, adapter);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    runs.length = 0;
  });

  it('hands the schema value to the first run and to the replay after tasks/update', async () => {
    const options = { capabilities: WITH_ELICITATION };
    const created = result(
      await call(server.url, 'tools/call', { name: 'order', arguments: { item: ' bread ' } }, options),
    );
    expect(created.resultType).toBe('task');
    const asked = await pollUntil(server.url, created.taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests);
    expect(asked.inputRequests[key!].params.message).toBe('Order 1 BREAD?');
    await call(
      server.url,
      'tasks/update',
      { taskId: created.taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } },
      options,
    );
    const done = await pollUntil(server.url, created.taskId, (task) => task.status === 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Ordered 1 BREAD' }]);
    expect(runs).toEqual([
      { item: 'BREAD', quantity: 1 },
      { item: 'BREAD', quantity: 1 },
    ]);
  });

  it('replays a task whose schema validates asynchronously, waiting for the library', async () => {
    const options = { capabilities: WITH_ELICITATION };
    const created = result(
      await call(server.url, 'tools/call', { name: 'reserve', arguments: { guest: 'Ada' } }, options),
    );
    const asked = await pollUntil(server.url, created.taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests);
    await call(
      server.url,
      'tasks/update',
      { taskId: created.taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } },
      options,
    );
    const done = await pollUntil(server.url, created.taskId, (task) => task.status !== 'working');
    expect(done.status).toBe('completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Reserved for Ada' }]);
    expect(runs).toEqual([{ guest: 'Ada' }, { guest: 'Ada' }]);
  });

  it('refuses bad arguments before any task is created', async () => {
    const refused = result(
      await call(
        server.url,
        'tools/call',
        { name: 'order', arguments: { item: 3, quantity: 0 } },
        {
          capabilities: WITH_ELICITATION,
        },
      ),
    );
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/^Invalid arguments for tool order:\n- item: .+\n- quantity: /);
    expect(runs).toEqual([]);
  });
});
