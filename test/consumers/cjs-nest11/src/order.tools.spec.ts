import { McpTestClient, McpTestError } from '@mocapi/nestjs/testing';
import { AppModule } from './app.module';
import { OrderTools } from './order.tools';

describe('an eliciting tool through @mocapi/nestjs/testing (CommonJS, NestJS 11, Jest 29 + ts-jest)', () => {
  let mcp: McpTestClient;

  beforeEach(async () => {
    mcp = await McpTestClient.start(AppModule);
  });
  afterEach(() => mcp.close());

  it('lists the tool with the schema of its DTO (decorator metadata reached the package)', async () => {
    const tools = await mcp.listTools();
    expect(tools.find((t) => t['name'] === 'placeOrder')?.['inputSchema']).toMatchObject({
      type: 'object',
      properties: { item: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
    });
  });

  it('asks for a confirmation, then places the order', async () => {
    const first = await mcp.callTool('placeOrder', { item: 'tea', quantity: 2 });
    expect(first.isComplete).toBe(false);
    const [key, question] = Object.entries(first.inputRequests)[0]!;
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Order 2 x tea?' } });
    expect(mcp.app.get(OrderTools).placed).toHaveLength(0);

    const done = await first.respond({ [key]: { action: 'accept', content: { confirm: true } } });
    expect(done.isComplete).toBe(true);
    expect(done.result['structuredContent']).toEqual({ orderId: 'order-1', item: 'tea', quantity: 2 });
    expect(mcp.app.get(OrderTools).placed).toEqual([{ item: 'tea', quantity: 2 }]);
  });

  it('drives a declined flow with callToolAnswering', async () => {
    const { result, rounds } = await mcp.callToolAnswering('placeOrder', { item: 'tea', quantity: 1 }, () => ({
      action: 'decline',
    }));
    expect(rounds).toHaveLength(2);
    expect(result.content).toEqual([{ type: 'text', text: 'Order cancelled' }]);
  });

  it('answers invalid arguments with an isError result, and an unknown tool with McpTestError', async () => {
    const round = await mcp.callTool('placeOrder', { item: 'tea', quantity: 0 });
    expect(round.result['isError']).toBe(true);
    await expect(mcp.callTool('noSuchTool')).rejects.toBeInstanceOf(McpTestError);
  });
});
