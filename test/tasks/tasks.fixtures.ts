import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import {
  ElicitationContext,
  type McpExchange,
  McpModule,
  McpProgressReporter,
  McpTaskContext,
  type McpModuleOptions,
  type McpTasksOptions,
  McpTool,
} from '../../src/index.js';
import { AppHeaderPrincipalSource } from '../mrtr/principal.fixtures.js';

/** A gate the test opens: lets a running task handler go on at a moment the test chooses. */
class Gate {
  private open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.open = resolve));
  release(): void {
    this.open();
  }
}

/** What the task handlers did, for the test to observe (started, aborted, how many runs). */
@Injectable()
export class TaskProbe {
  readonly gates = new Map<string, Gate>();
  readonly aborted = new Map<string, string>();
  readonly started = new Set<string>();
  runs = 0;

  gate(label: string): Gate {
    let gate = this.gates.get(label);
    if (!gate) this.gates.set(label, (gate = new Gate()));
    return gate;
  }
}

/** Tools that run as tasks, for the e2e suite. */
@Injectable()
export class TaskTools {
  constructor(
    private readonly probe: TaskProbe,
    private readonly progress: McpProgressReporter,
    private readonly elicitation: ElicitationContext,
    private readonly task: McpTaskContext,
  ) {}

  @McpTool({
    name: 'build_report',
    description: 'Builds a report in two steps, reporting progress; waits for the test between them',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'optional',
  })
  async buildReport(args: { label: string }): Promise<string> {
    this.progress.report(1, 2, `Step 1 of 2: collected the data for ${args.label}`);
    await this.probe.gate(args.label).opened;
    this.progress.report(2, 2, 'Step 2 of 2: rendering');
    return `Report ${args.label} is ready`;
  }

  @McpTool({
    name: 'long_job',
    description: 'Runs until its signal aborts',
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    taskSupport: 'required',
  })
  async longJob(args: { label: string }, exchange: McpExchange): Promise<string> {
    this.probe.started.add(args.label);
    await new Promise<void>((resolve) => {
      const onAbort = () => {
        this.probe.aborted.set(args.label, String((exchange.signal.reason as Error)?.message));
        resolve();
      };
      if (exchange.signal.aborted) onAbort();
      else exchange.signal.addEventListener('abort', onAbort, { once: true });
    });
    return `long job ${args.label} stopped`;
  }

  @McpTool({ name: 'two_questions', description: 'Asks for a name, then for a confirmation', taskSupport: 'optional' })
  async twoQuestions(): Promise<string> {
    this.probe.runs++;
    const name = await this.elicitation.elicit('Your name?', (s) => s.string('name', { title: 'Name' }));
    if (name.action !== 'accept') return 'No name';
    const confirm = await this.elicitation.elicit(`Deploy as ${name.content.name}?`, (s) => s.boolean('confirm'));
    const yes = confirm.action === 'accept' && confirm.content.confirm === true;
    return yes ? `Deployed by ${name.content.name}` : `Not deployed (${name.content.name})`;
  }

  @McpTool({
    name: 'deploy_after_confirm',
    description: 'Asks for a confirmation in the request, then deploys as a task',
    taskSupport: 'required',
    taskCreation: 'handler',
  })
  async deployAfterConfirm(): Promise<string> {
    this.probe.runs++;
    const answer = await this.elicitation.elicit('Deploy to production?', (s) => s.boolean('confirm'));
    await this.task.start();
    const confirmed = answer.action === 'accept' && answer.content.confirm === true;
    return `${confirmed ? 'Deployed' : 'Skipped'} in task ${this.task.taskId}`;
  }

  @McpTool({
    name: 'maybe_task',
    description: 'Starts a task only when the client supports tasks',
    taskSupport: 'optional',
    taskCreation: 'handler',
  })
  async maybeTask(): Promise<string> {
    await this.task.start();
    return this.task.isTask ? 'finished as a task' : 'finished synchronously';
  }
}

@Module({})
class TasksE2eHolder {}

/** McpModule with the tools above; the caller is the `x-user` header (AppHeaderPrincipalSource). */
export function tasksModule(
  tasks: McpTasksOptions = { ttlMs: 60_000, pollIntervalMs: 50 },
  options: Partial<McpModuleOptions> = {},
): DynamicModule {
  return {
    module: TasksE2eHolder,
    imports: [
      McpModule.forRoot({
        name: 'tasks-e2e',
        version: '1.0.0',
        mrtr: { secrets: ['tasks-e2e-secret-0123456789abcdef0123456789'] },
        tasks,
        principalSource: AppHeaderPrincipalSource,
        ...options,
      }),
    ],
    providers: [TaskProbe, TaskTools],
  };
}
