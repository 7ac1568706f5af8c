import { Injectable, Module } from '@nestjs/common';
import { IsInt } from 'class-validator';
import { ElicitationContext, McpModule, McpTool } from '../../src/index.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { type RunningApp, startApp } from '../support/start-app.js';

const SRC = `${process.cwd()}/src/`;

/**
 * The frames of a stack that lie in the package's own source, innermost first: the functions
 * between the adapter binding and the tool, sync and `at async` ones (every async function on the
 * path awaits what it calls, so the async chain is whole).
 */
function packageFrames(stack: string): string[] {
  return stack
    .split('\n')
    .slice(1)
    .filter((line) => line.includes(SRC))
    .map((line) => line.trim().replace(SRC, ''));
}

/** At most `max` frames, from the tool's caller to the transport's handler (so the chain is whole). */
function expectAtMost(max: number, frames: string[]): void {
  const listed = frames.join('\n');
  expect(frames[0]).toContain('discovery/mcp-handler.factory.ts');
  expect(listed).toContain('transport/http/mcp-http-handler.ts');
  if (frames.length > max) throw new Error(`${frames.length} package frames (at most ${max}):\n${listed}`);
}

class AddDto {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

/** Records the stack at the top of the handler, every time it runs. */
@Injectable()
class ProbeTools {
  readonly stacks: string[] = [];

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'add', description: 'Adds two integers' })
  add(input: AddDto): number {
    this.record();
    return input.a + input.b;
  }

  @McpTool({ name: 'ask', description: 'Asks one question' })
  async ask(): Promise<string> {
    this.record();
    const answer = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    return `hello ${answer.action === 'accept' ? answer.content.name : 'nobody'}`;
  }

  private record(): void {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;
    this.stacks.push(new Error('probe').stack ?? '');
    Error.stackTraceLimit = limit;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'frames', version: '1.0.0' })],
  providers: [ProbeTools],
})
class FramesModule {}

/**
 * How many of the package's own functions stand between the adapter and a tool: the request path
 * ARCHITECTURE.md follows, counted from a stack taken inside the tool (sync and async frames).
 */
describe('the request path, counted in frames (ARCHITECTURE.md follows it hop by hop)', () => {
  let server: RunningApp;
  let tools: ProbeTools;

  beforeAll(async () => {
    server = await startApp(FramesModule, 'fastify');
    tools = server.app.get(ProbeTools);
  });
  afterAll(async () => {
    await server.close();
  });

  it('a 2026-07-28 tools/call', async () => {
    const client = await connectOfficialClient(server.url);
    tools.stacks.length = 0;
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: '3' }]);
    expectAtMost(13, packageFrames(tools.stacks.at(-1)!));
  });

  it('the final round of a 2026-07-28 retry', async () => {
    const eliciting = await connectElicitingClient(server.url, {
      onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    tools.stacks.length = 0;
    const result = await eliciting.client.callTool({ name: 'ask', arguments: {} });
    await eliciting.close();
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(tools.stacks).toHaveLength(2);
    expectAtMost(13, packageFrames(tools.stacks.at(-1)!));
  });

  it('a 2025-era tools/call and its final round', async () => {
    const legacy = await connectLegacyClient(server.url, {
      onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    tools.stacks.length = 0;
    const sum = await legacy.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(sum.content).toEqual([{ type: 'text', text: '3' }]);
    expectAtMost(13, packageFrames(tools.stacks.at(-1)!));
    tools.stacks.length = 0;
    const asked = await legacy.client.callTool({ name: 'ask', arguments: {} });
    await legacy.close();
    expect(asked.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(tools.stacks).toHaveLength(2);
    expectAtMost(12, packageFrames(tools.stacks.at(-1)!));
  });
});
