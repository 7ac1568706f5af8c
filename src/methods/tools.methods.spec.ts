import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { IsInt } from 'class-validator';
import { McpInbound } from '../calls/mcp-inbound.js';
import { McpTool } from '../decorators/mcp-tool.decorator.js';
import { createExchange } from '../dispatch/exchange.factory.js';
import { McpModule } from '../mcp.module.js';
import { ElicitationContext } from '../mrtr/elicitation-context.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../protocol/meta-keys.js';
import { ToolsMethods } from './tools.methods.js';

class AddDto {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

@Injectable()
class Tools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'add', description: 'Adds two integers' })
  add(input: AddDto): number {
    return input.a + input.b;
  }

  @McpTool({ name: 'fails', description: 'Throws' })
  fails(): never {
    throw new Error('out of tables');
  }

  @McpTool({ name: 'refuses', description: 'Throws a protocol error' })
  refuses(): never {
    throw McpError.invalidParams('not today');
  }

  @McpTool({ name: 'asks', description: 'Asks for a name' })
  async asks(): Promise<string> {
    const answer = await this.elicitation.elicit('Name?', (s) => s.string('name'));
    return answer.action === 'accept' ? answer.content.name : 'nobody';
  }

  @McpTool({ name: 'slow', description: 'Never ends on its own', timeoutMs: 50 })
  async slow(): Promise<string> {
    return new Promise(() => undefined);
  }
}

const capabilities = { elicitation: { form: {} } };

/** tools/call on its own: the method the table holds, with the real module around it and no transport. */
describe('ToolsMethods tools/call', () => {
  let module: TestingModule;
  let tools: ToolsMethods;

  beforeAll(async () => {
    module = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'tools-spec', version: '1.0.0' })],
      providers: [Tools],
    }).compile();
    module.useLogger(false); // what a failing tool logs is pinned by the e2e specs, not here
    await module.init();
    tools = module.get(ToolsMethods, { strict: false });
  });
  afterAll(() => module.close());

  async function call(name: string, args: unknown = {}): Promise<Record<string, unknown>> {
    const params = {
      name,
      arguments: args,
      _meta: { [META_PROTOCOL_VERSION]: '2026-07-28', [META_CLIENT_CAPABILITIES]: capabilities },
    };
    const inbound = new McpInbound({
      transport: { kind: 'stdio' },
      signal: () => new AbortController().signal,
      notify: () => undefined,
    });
    return (await tools.methods['tools/call']!(createExchange(1, 'tools/call', params, inbound), inbound)) as Record<
      string,
      unknown
    >;
  }

  it('answers the value as a CallToolResult, unstamped (the 2026-07-28 leg stamps it)', async () => {
    const result = await call('add', { a: 2, b: 3 });
    expect(result).toMatchObject({ content: [{ type: 'text', text: '5' }] });
    expect(result).not.toHaveProperty('resultType');
  });

  it('answers arguments its DTO refuses with a tool error naming them', async () => {
    const result = await call('add', { a: 'two', b: 3 });
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result['content'])).toContain('Invalid arguments for tool add');
  });

  it('refuses an unknown tool and arguments that are not an object with -32602', async () => {
    await expect(call('nope')).rejects.toMatchObject({ code: McpErrorCode.InvalidParams });
    await expect(call('add', [1, 2])).rejects.toMatchObject({ code: McpErrorCode.InvalidParams });
  });

  it("answers what a tool throws as its error result, and a protocol error as the request's error", async () => {
    await expect(call('fails')).resolves.toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'out of tables' }],
    });
    await expect(call('refuses')).rejects.toMatchObject({ code: McpErrorCode.InvalidParams, message: 'not today' });
  });

  it('answers a question as an input_required round with a sealed requestState', async () => {
    const round = await call('asks');
    expect(round).toMatchObject({ resultType: 'input_required' });
    expect(typeof round['requestState']).toBe('string');
    expect(Object.values(round['inputRequests'] as object)).toEqual([
      expect.objectContaining({ method: 'elicitation/create' }),
    ]);
  });

  it('stops a tool past its timeout with a tool error', async () => {
    await expect(call('slow')).resolves.toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The tool slow did not finish within 50 ms and was stopped.' }],
    });
  });
});
