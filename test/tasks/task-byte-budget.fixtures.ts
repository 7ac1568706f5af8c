import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import { ElicitationContext, McpModule, McpProgressReporter, McpTool } from '../../src/index.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { AppHeaderPrincipalSource } from '../mrtr/principal.fixtures.js';
import type { RawResponse } from '../support/raw-mcp.js';

// The app of the byte-budget suites (test/tasks/task-byte-budget.e2e-spec.ts in memory,
// test/redis/redis-task-byte-budget.e2e-spec.ts on Redis). A task of `keep` with BLOB characters of
// arguments takes about 10.6 KB of the store (its arguments and some 600 bytes of the rest): the
// budget takes four such tasks of one caller and not five.

export const BUDGET = 50_000;
export const BLOB = 10_000;
/** The per-part bound, above the budget: a single part can be too large for the budget and pass it. */
export const MAX_PART = 64 * 1024;

const STACK = /\n\s+at\s|node_modules|\.ts:\d+/;

/** Gates the test opens, by label. */
@Injectable()
export class BudgetGates {
  private readonly open = new Map<string, () => void>();
  private readonly gates = new Map<string, Promise<void>>();

  wait(label: string): Promise<void> {
    let gate = this.gates.get(label);
    if (!gate) this.gates.set(label, (gate = new Promise((resolve) => this.open.set(label, resolve))));
    return gate;
  }

  release(label: string): void {
    void this.wait(label);
    this.open.get(label)!();
  }
}

@Injectable()
export class BudgetTools {
  constructor(
    private readonly gates: BudgetGates,
    private readonly progress: McpProgressReporter,
    private readonly elicitation: ElicitationContext,
  ) {}

  @McpTool({
    name: 'keep',
    description: 'Keeps its arguments as a task; a 2025-era client calls it directly',
    taskSupport: 'optional',
  })
  keep(): string {
    return 'kept';
  }

  @McpTool({ name: 'big_result', description: 'Answers `bytes` characters', taskSupport: 'required' })
  bigResult(args: { bytes: number }): string {
    return 'x'.repeat(args.bytes);
  }

  @McpTool({
    name: 'ask',
    description: 'Asks for a note (its question padded to `bytes` characters) and answers its length',
    taskSupport: 'required',
  })
  async ask(args: { bytes?: number }): Promise<string> {
    const note = await this.elicitation.elicit('A note?'.padEnd(args.bytes ?? 0, '.'), (s) => s.string('note'));
    return note.action === 'accept' ? `noted ${String(note.content.note).length}` : 'no note';
  }

  @McpTool({
    name: 'chatty',
    description: 'Reports a long progress message, then a short one, then waits',
    taskSupport: 'required',
  })
  async chatty(args: { label: string; bytes: number }): Promise<string> {
    this.progress.report(1, 2, 'p'.repeat(args.bytes));
    this.progress.report(2, 2, 'Step 2');
    await this.gates.wait(args.label);
    return 'chatted';
  }
}

/** McpModule with the tools above and the budget; the caller is the `x-user` header, else the client address. */
export function budgetModule(tasks: { ttlMs: number }, redis?: { url: string; keyPrefix: string }): DynamicModule {
  @Module({
    imports: [
      ...(redis ? [McpRedisModule.forRoot({ connection: redis.url, keyPrefix: redis.keyPrefix })] : []),
      McpModule.forRoot({
        name: 'task-byte-budget',
        version: '1.0.0',
        mrtr: { secrets: ['task-byte-budget-secret-0123456789abcdef012345'] },
        principalSource: AppHeaderPrincipalSource,
        tasks: { ...tasks, pollIntervalMs: 50 },
        limits: { maxStoredTaskBytesPerCaller: BUDGET, maxTaskPayloadBytes: MAX_PART },
      }),
    ],
    providers: [BudgetGates, BudgetTools],
  })
  class BudgetModule {}
  return { module: BudgetModule };
}

/** Arguments of `keep` that make a task of about 10.6 KB. */
export const KEEP = { blob: 'x'.repeat(BLOB) };

/**
 * Checks a refusal by the byte budget as the count quotas answer it: -32050 with the request's id,
 * HTTP 429, `Retry-After` in whole seconds, `data: { retryAfterMs, limit }`, no stack; returns
 * `retryAfterMs`.
 */
export function expectBudgetRefusal(response: RawResponse, maxRetryAfterS: number): number {
  expect(response.status).toBe(429);
  expect(response.json.error).toEqual({
    code: -32050,
    message: expect.stringContaining(`limits.maxStoredTaskBytesPerCaller is ${BUDGET}`),
    data: { retryAfterMs: expect.any(Number), limit: 'maxStoredTaskBytesPerCaller' },
  });
  expect(response.json.id).toEqual(expect.any(Number));
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfterS);
  expect(response.text).not.toMatch(STACK);
  return response.json.error.data.retryAfterMs;
}
