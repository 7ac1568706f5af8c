import { Injectable, Logger, Module } from '@nestjs/common';
import { IsNumber } from 'class-validator';
import { ElicitationContext, McpModule, McpTool, type McpExchange } from '../../src/index.js';

export class AddDto {
  @IsNumber() a!: number;
  @IsNumber() b!: number;
}

/** The tools the stdio e2e server exposes. */
@Injectable()
export class StdioTools {
  private readonly logger = new Logger('StdioTools');

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'add', description: 'Adds two numbers' })
  add(input: AddDto): string {
    this.logger.log(`add(${input.a}, ${input.b})`);
    return String(input.a + input.b);
  }

  @McpTool({ name: 'chatty', description: 'Prints to the console, which must not reach stdout' })
  chatty(): string {
    console.log('chatty says hello on console.log');
    console.info('chatty says hello on console.info');
    return 'said hello';
  }

  @McpTool({ name: 'transport_kind', description: 'Names the transport the call came over' })
  transportKind(_input: unknown, exchange: McpExchange): string {
    return exchange.transport.kind;
  }

  @McpTool({
    name: 'tally',
    description: 'Counts to three slowly (a task for clients with the tasks extension)',
    taskSupport: 'optional',
  })
  async tally(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 150));
    return 'one, two, three';
  }

  @McpTool({ name: 'confirm', description: 'Asks the user to confirm' })
  async confirm(): Promise<string> {
    const answer = await this.elicitation.elicit('Proceed?', (s) => s.boolean('ok'));
    return answer.action === 'accept' && answer.content.ok ? 'confirmed' : `not confirmed (${answer.action})`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'stdio-e2e', version: '2.0.0', http: false, maxBodyBytes: 4096 })],
  providers: [StdioTools],
})
export class StdioToolsModule {}
