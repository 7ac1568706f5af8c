import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import {
  ElicitationContext,
  type McpExchange,
  McpModule,
  McpProgressReporter,
  McpTaskContext,
  McpTool,
} from '../../src/index.js';

/**
 * What the tools saw, for the test: the gates the client opens by task id (through the `open_gate`
 * tool, so a task waits for its watcher), and why each cancelled task's handler was aborted.
 */
@Injectable()
export class OfficialClientProbe {
  readonly aborted = new Map<string, string>();
  private readonly gates = new Map<string, { opened: Promise<void>; open: () => void }>();

  gate(taskId: string): { opened: Promise<void>; open: () => void } {
    let gate = this.gates.get(taskId);
    if (!gate) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      this.gates.set(taskId, (gate = { opened, open }));
    }
    return gate;
  }
}

/** The tools the official tasks client drives: one per flow (settle, cancel, input, notifications). */
@Injectable()
export class OfficialClientTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    private readonly progress: McpProgressReporter,
    private readonly task: McpTaskContext,
    private readonly probe: OfficialClientProbe,
  ) {}

  @McpTool({ name: 'quick_report', description: 'Builds a report as a task', taskSupport: 'required' })
  async quick(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'report ready';
  }

  @McpTool({ name: 'endless', description: 'Runs until cancelled', taskSupport: 'required' })
  endless(_input: unknown, exchange: McpExchange): Promise<string> {
    const taskId = this.task.taskId!;
    return new Promise((_resolve, reject) => {
      const onAbort = () => {
        this.probe.aborted.set(taskId, String((exchange.signal.reason as Error)?.message));
        reject(exchange.signal.reason as Error);
      };
      exchange.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  @McpTool({
    name: 'publish_report',
    description: 'Asks, mid-task, whether to publish the month’s report',
    inputSchema: { type: 'object', properties: { month: { type: 'string' } }, required: ['month'] },
    taskSupport: 'required',
  })
  async publish(args: { month: string }): Promise<string> {
    const answer = await this.elicitation.elicit(`Publish the ${args.month} report?`, (s) => s.boolean('publish'));
    const yes = answer.action === 'accept' && answer.content.publish === true;
    return yes ? `The ${args.month} report is published` : `The ${args.month} report stays a draft`;
  }

  /** Waits for its gate (the client opens it once it listens), then reports progress and asks. */
  @McpTool({
    name: 'watched_report',
    description: 'A task that waits for its watcher, then asks',
    taskSupport: 'required',
  })
  async watched(): Promise<string> {
    await this.probe.gate(this.task.taskId!).opened;
    this.progress.report(1, 2, 'Counting the covers');
    const answer = await this.elicitation.elicit('Include the no-shows?', (s) => s.boolean('include'));
    const yes = answer.action === 'accept' && answer.content.include === true;
    return yes ? 'Covers counted, no-shows included' : 'Covers counted';
  }

  @McpTool({
    name: 'open_gate',
    description: 'Lets a watched_report task go on',
    inputSchema: { type: 'object', properties: { taskId: { type: 'string' } }, required: ['taskId'] },
  })
  openGate(args: { taskId: string }): string {
    this.probe.gate(args.taskId).open();
    return 'opened';
  }
}

@Module({})
class OfficialClientHolder {}

/**
 * McpModule with the tools above. `pollIntervalMs` is the interval the server suggests: a long one
 * leaves the client nothing but `notifications/tasks` to learn of a change within a test.
 */
export function officialClientModule(pollIntervalMs: number): DynamicModule {
  return {
    module: OfficialClientHolder,
    imports: [McpModule.forRoot({ name: 'tasks-official', version: '1.0.0', tasks: { pollIntervalMs } })],
    providers: [OfficialClientProbe, OfficialClientTools],
  };
}
