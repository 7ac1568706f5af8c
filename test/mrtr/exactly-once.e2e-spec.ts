import { Injectable, Module } from '@nestjs/common';
import { ElicitationContext, McpModule, McpTool } from '../../src/index.js';
import { McpClock } from '../../src/core/mcp-clock.js';
import { McpTestClient, type McpCallRound } from '../../src/testing/index.js';
import { ADAPTERS } from '../support/start-app.js';
import { ManualClock } from './mrtr-app.js';

const HOUR = 3_600_000;

/** Counts how often each tool's side effect ran. */
@Injectable()
class Ledger {
  readonly effects: Record<string, number> = {};
  readonly flowIds: string[] = [];
}

@Injectable()
class OrderTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    private readonly ledger: Ledger,
  ) {}

  @McpTool({ name: 'place_order', description: 'Confirms, then places an order once per flow', exactlyOnce: true })
  async placeOrder(): Promise<{ order: number; flowId: string }> {
    const answer = await this.elicitation.elicit('Place the order?', (s) => s.boolean('ok'));
    if (answer.action !== 'accept' || !answer.content.ok) return { order: 0, flowId: this.elicitation.flowId };
    // A slow side effect widens the window in which concurrent copies overlap.
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.ledger.effects['place_order'] = (this.ledger.effects['place_order'] ?? 0) + 1;
    this.ledger.flowIds.push(this.elicitation.flowId);
    return { order: this.ledger.effects['place_order'], flowId: this.elicitation.flowId };
  }

  @McpTool({ name: 'place_order_again', description: 'The same, without exactly-once' })
  async placeOrderAgain(): Promise<{ order: number }> {
    const answer = await this.elicitation.elicit('Place the order?', (s) => s.boolean('ok'));
    if (answer.action !== 'accept') return { order: 0 };
    this.ledger.effects['again'] = (this.ledger.effects['again'] ?? 0) + 1;
    return { order: this.ledger.effects['again'] };
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'orders',
      version: '1.0.0',
      mrtr: { secrets: ['exactly-once-secret-0123456789-abcdefghij'], ttlMs: 2 * HOUR, maxFlowMs: 3 * HOUR },
    }),
  ],
  providers: [OrderTools, Ledger],
})
class OrdersModule {}

describe.each(ADAPTERS)('exactly-once completion, on %s', (adapter) => {
  let mcp: McpTestClient;
  const clock = new ManualClock();
  let ledger: Ledger;
  beforeAll(async () => {
    mcp = await McpTestClient.start(OrdersModule, {
      adapter,
      configure: (b) => b.overrideProvider(McpClock).useValue(clock),
    });
    ledger = mcp.app.get(Ledger);
  });
  afterAll(() => mcp.close());

  const finalRound = async (tool: string): Promise<McpCallRound> => {
    const first = await mcp.callTool(tool);
    expect(first.isComplete).toBe(false);
    return first;
  };
  const yes = { 'elicit-1': { action: 'accept' as const, content: { ok: true } } };

  it('50 concurrent copies of the final retry: the handler completes once, all 50 get the same result', async () => {
    const before = ledger.effects['place_order'] ?? 0;
    const round = await finalRound('place_order');
    const results = await Promise.all(Array.from({ length: 50 }, () => round.respond(yes)));
    expect(ledger.effects['place_order']).toBe(before + 1);
    const structured = results.map((r) => JSON.stringify(r.result['structuredContent']));
    expect(new Set(structured).size).toBe(1);
    expect(results.every((r) => r.isComplete)).toBe(true);
    expect(JSON.parse(structured[0]!)).toEqual({ order: before + 1, flowId: ledger.flowIds.at(-1) });
  });

  it('a replay an hour later, inside the flow lifetime, gets the recorded result without running the handler', async () => {
    const round = await finalRound('place_order');
    const done = await round.respond(yes);
    const count = ledger.effects['place_order'];
    clock.advance(HOUR);
    const replay = await round.respond(yes);
    expect(replay.result['structuredContent']).toEqual(done.result['structuredContent']);
    expect(ledger.effects['place_order']).toBe(count);
  });

  it('after the flow lifetime the token itself is refused (flow_expired): the handler still does not run', async () => {
    const round = await finalRound('place_order');
    await round.respond(yes);
    const count = ledger.effects['place_order'];
    clock.advance(3 * HOUR + 1);
    await expect(round.respond(yes)).rejects.toMatchObject({ code: -32602, data: { reason: 'flow_expired' } });
    expect(ledger.effects['place_order']).toBe(count);
  });

  it('rounds that ask another question are not recorded, and each new call is a new flow', async () => {
    const a = await finalRound('place_order');
    const b = await finalRound('place_order');
    const [doneA, doneB] = [await a.respond(yes), await b.respond(yes)];
    expect((doneA.result['structuredContent'] as { flowId: string }).flowId).not.toBe(
      (doneB.result['structuredContent'] as { flowId: string }).flowId,
    );
    // A round that only re-asks (no answer given) records nothing: the flow completes later.
    const c = await finalRound('place_order');
    const again = await c.respond({});
    expect(again.isComplete).toBe(false);
    expect((await c.respond(yes)).isComplete).toBe(true);
  });

  it('without exactlyOnce a replayed final round runs again (the documented default)', async () => {
    const round = await finalRound('place_order_again');
    await round.respond(yes);
    await round.respond(yes);
    expect(ledger.effects['again']).toBe(2);
  });
});
