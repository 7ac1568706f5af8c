import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { ElicitationContext, McpError, McpModule, McpTaskContext, McpTool } from '../../src/index.js';
import { AppHeaderPrincipalSource } from '../mrtr/principal.fixtures.js';

/**
 * How often each labelled side effect happened, over every app of the process (the two nodes of
 * the Redis suite share it, as they would share a payments provider).
 */
export const effects = new Map<string, number>();

function effect(label: string): number {
  const n = (effects.get(label) ?? 0) + 1;
  effects.set(label, n);
  return n;
}

/** Gates the test opens: `slow_charge` with this label waits until then. */
export const gates = new Map<string, () => void>();
const opened = new Map<string, Promise<void>>();

/** The promise `slow_charge` of `label` waits on (made on first use). */
function gate(label: string): Promise<void> {
  let waiting = opened.get(label);
  if (!waiting) {
    waiting = new Promise<void>((resolve) => gates.set(label, resolve));
    opened.set(label, waiting);
  }
  return waiting;
}

const LABEL = { type: 'object', properties: { label: { type: 'string' }, amount: { type: 'number' } } };

interface Charge {
  readonly label: string;
  readonly amount?: number;
}

/** Tools with a counted side effect, for the idempotency e2e. */
@Injectable()
export class ChargeTools {
  constructor(
    private readonly task: McpTaskContext,
    private readonly elicitation: ElicitationContext,
  ) {}

  @McpTool({ name: 'charge', description: 'Charges once per call (counted)', inputSchema: LABEL })
  charge(args: Charge): string {
    return `charged ${args.amount ?? 0} for ${args.label}: effect #${effect(args.label)}`;
  }

  @McpTool({ name: 'slow_charge', description: 'Charges once the test opens its gate', inputSchema: LABEL })
  async slowCharge(args: Charge): Promise<string> {
    await gate(args.label);
    return `slowly charged ${args.label}: effect #${effect(args.label)}`;
  }

  @McpTool({ name: 'refuse', description: 'Counts, then refuses with a protocol error', inputSchema: LABEL })
  refuse(args: Charge): string {
    throw McpError.invalidParams(`refused ${args.label} (attempt #${effect(args.label)})`);
  }

  @McpTool({ name: 'confirm_charge', description: 'Asks, then charges', inputSchema: LABEL })
  async confirmCharge(args: Charge): Promise<string> {
    const answer = await this.elicitation.elicit('Charge?', (s) => s.boolean('ok'));
    if (answer.action !== 'accept') return 'not charged';
    return `confirmed ${args.label}: effect #${effect(args.label)}`;
  }

  @McpTool({
    name: 'charge_task',
    description: 'Charges in a task (counted per run) and answers with its operation id',
    inputSchema: LABEL,
    taskSupport: 'required',
  })
  chargeTask(args: Charge): { operationId: string; taskId: string | undefined; effect: number } {
    return { operationId: this.task.operationId, taskId: this.task.taskId, effect: effect(args.label) };
  }

  @McpTool({ name: 'operation_id', description: 'Answers with its operation id and flow id' })
  operationId(): { operationId: string; flowId: string } {
    return { operationId: this.task.operationId, flowId: this.elicitation.flowId };
  }
}

/** McpModule with the tools above (the caller is the `x-user` header), plus `imports` (e.g. McpRedisModule). */
export function idempotencyModule(imports: DynamicModule[] = []): DynamicModule {
  @Module({})
  class IdempotencyE2e {}
  return {
    module: IdempotencyE2e,
    imports: [
      McpModule.forRoot({
        name: 'idempotency-e2e',
        version: '1.0.0',
        mrtr: { secrets: ['idempotency-e2e-secret-0123456789abcdef0123456789'] },
        tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
        principalSource: AppHeaderPrincipalSource,
      }),
      ...imports,
    ],
    providers: [ChargeTools],
  };
}
