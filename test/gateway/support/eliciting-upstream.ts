import { Injectable, Module } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import {
  ElicitationContext,
  McpCtx,
  type McpExchange,
  McpModule,
  McpPrompt,
  McpResource,
  McpTool,
} from '../../../src/index.js';

export class SleepDto {
  @IsInt() @Min(0) @Max(10_000) ms!: number;
}

/** How many times each upstream handler ran (a replay engine runs a handler once per round). */
export const upstreamRuns = { book: 0 };

/** Our own MCP server as the upstream: a tool that asks two questions, a slow one, a large one, one that fails. */
@Injectable()
export class BookingTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({
    name: 'book',
    description: 'Books a table, asking for a name and then a time',
    annotations: { openWorldHint: false },
  })
  async book(): Promise<string> {
    upstreamRuns.book++;
    const who = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    if (who.action !== 'accept') return 'Not booked.';
    const when = await this.elicitation.elicit(`When, ${who.content.name}?`, (s) => s.string('time'));
    if (when.action !== 'accept') return 'Not booked.';
    return `Booked for ${who.content.name} at ${when.content.time}`;
  }

  @McpTool({ name: 'sleep', description: 'Answers after `ms` milliseconds' })
  async sleep(input: SleepDto): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return `slept ${input.ms} ms`;
  }

  @McpTool({ name: 'traceparent', description: 'Answers the traceparent its request carried' })
  traceparent(@McpCtx() exchange: McpExchange): string {
    const meta = exchange.params['_meta'] as Record<string, unknown> | undefined;
    return String(meta?.['traceparent'] ?? 'none');
  }

  @McpTool({ name: 'big', description: 'Answers 5000 characters' })
  big(): string {
    return 'x'.repeat(5000);
  }

  @McpTool({ name: 'refuse', description: 'Always answers a tool error' })
  refuse(): { content: Array<{ type: 'text'; text: string }>; isError: true } {
    return { content: [{ type: 'text', text: 'No tables left.' }], isError: true };
  }

  @McpPrompt({ name: 'greeting', description: 'A greeting' })
  greeting(): string {
    return 'Hello from upstream';
  }

  @McpResource({ uri: 'upstream://menu', name: 'menu', mimeType: 'text/plain' })
  menu(): string {
    return 'soup, bread';
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'booking-upstream',
      version: '1.0.0',
      mrtr: { secrets: ['gateway-e2e upstream secret 0123456789abcdef'] },
    }),
  ],
  providers: [BookingTools],
})
export class BookingUpstreamModule {}
