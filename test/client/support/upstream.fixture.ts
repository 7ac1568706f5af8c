import { Injectable, Module } from '@nestjs/common';
import { IsInt, IsNumber, Max, Min } from 'class-validator';
import { McpModule, McpTool } from '../../../src/index.js';

export class AddDto {
  @IsNumber() a!: number;
  @IsNumber() b!: number;
}

export class SleepDto {
  @IsInt() @Min(0) @Max(10_000) ms!: number;
}

/** The tools of the server the application under test calls. */
@Injectable()
export class UpstreamTools {
  @McpTool({ name: 'add', description: 'Adds two numbers' })
  add(input: AddDto): string {
    return String(input.a + input.b);
  }

  @McpTool({ name: 'sleep', description: 'Answers after `ms` milliseconds' })
  async sleep(input: SleepDto): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return `slept ${input.ms} ms`;
  }
}

/** Our own MCP server, as the upstream. */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'upstream',
      version: '2.0.0',
      mrtr: { secrets: ['client-e2e-upstream-secret-0123456789abcdef0123'] },
    }),
  ],
  providers: [UpstreamTools],
})
export class UpstreamModule {}

/** The same tools on a server whose 2025-era sessions do not outlive its process (no shared secret). */
@Module({
  imports: [McpModule.forRoot({ name: 'forgetful', version: '1.0.0' })],
  providers: [UpstreamTools],
})
export class ForgetfulUpstreamModule {}
