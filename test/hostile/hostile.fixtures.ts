import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import {
  ElicitationContext,
  McpModule,
  type McpModuleOptions,
  McpProgressReporter,
  McpProperty,
  McpTool,
} from '../../src/index.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { rpc } from '../support/raw-mcp.js';
import type { AdapterKind, RunningApp } from '../support/start-app.js';

class Node {
  @IsString() name!: string;
  @IsOptional() @ValidateNested() @Type(() => Node) child?: Node;
}

export class TreeDto {
  @ValidateNested() @Type(() => Node) root!: Node;
  @IsOptional() @IsNumber() weight?: number;
}

/** Arguments mirrored in `Mcp-Param-*` headers (`x-mcp-header`): one of each type a header may carry. */
export class RouteDto {
  @McpProperty({ header: 'Region' }) @IsString() region!: string;
  @McpProperty({ header: 'Shard' }) @IsOptional() @IsInt() shard?: number;
  @McpProperty({ header: 'Dry-Run' }) @IsOptional() @IsBoolean() dryRun?: boolean;
}

/** What the handlers saw: aborted signals of timed-out calls. */
@Injectable()
export class HostileProbe {
  readonly aborted: boolean[] = [];
}

@Injectable()
export class HostileTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    private readonly progress: McpProgressReporter,
    private readonly probe: HostileProbe,
  ) {}

  @McpTool({ name: 'tree', description: 'Reads a nested DTO' })
  tree(input: TreeDto): string {
    return `${input.root.name} ${input.weight ?? 0}`;
  }

  @McpTool({ name: 'route', description: 'Echoes the arguments its Mcp-Param headers mirror' })
  route(input: RouteDto): string {
    return `${input.region} ${input.shard ?? '-'} ${input.dryRun ?? '-'}`;
  }

  @McpTool({ name: 'echo', description: 'Echoes its arguments' })
  echo(input: Record<string, unknown>): string {
    return JSON.stringify(input);
  }

  @McpTool({ name: 'ask_model', description: 'Samples twice' })
  async askModel(): Promise<string> {
    const a = await this.elicitation.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'One?' } }],
      maxTokens: 10,
    });
    const b = await this.elicitation.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Two?' } }],
      maxTokens: 10,
    });
    return [a, b]
      .map((r) => (Array.isArray(r.content) ? r.content[0] : r.content))
      .map((c) => (c?.type === 'text' ? c.text.length : 0))
      .join(',');
  }

  @McpTool({ name: 'notes', description: 'Collects notes over several questions' })
  async notes(): Promise<string> {
    const notes: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const answer = await this.elicitation.elicit(`Note ${i}?`, (s) => s.string('note'));
      notes.push(answer.action === 'accept' ? answer.content.note : '');
    }
    return `${notes.join('').length} characters`;
  }

  @McpTool({ name: 'quick_task', description: 'Runs as a task when asked to, and asks once', taskSupport: 'optional' })
  async quickTask(input: Record<string, unknown>): Promise<string> {
    if (input['ask'] !== true) return 'done';
    const answer = await this.elicitation.elicit('Go on?', (s) => s.boolean('go'));
    return answer.action === 'accept' ? 'went on' : 'stopped';
  }

  @McpTool({ name: 'slow', description: 'Takes its time', timeoutMs: 200 })
  async slow(): Promise<string> {
    const signal = this.progress.signal!;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    this.probe.aborted.push(signal.aborted);
    return 'finished';
  }
}

export function hostileModule(options: Partial<McpModuleOptions> = {}): DynamicModule {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'hostile',
        version: '1.0.0',
        mrtr: { secrets: ['hostile-input-secret-0123456789-abcdefgh'], maxTokenBytes: 8_000 },
        ...options,
      }),
    ],
    providers: [HostileTools, HostileProbe],
  })
  class HostileModule {}
  return { module: HostileModule };
}

/** The hostile-input app of one describe block, and a raw `tools/call` on it. */
export interface HostileApp {
  readonly server: RunningApp;
  call(name: string, extra: Record<string, unknown>, caps?: Record<string, unknown>): ReturnType<typeof rpc>;
}

/**
 * Starts the hostile-input app on `adapter` once for the enclosing describe block (its hooks are
 * registered here) and checks after each test that nothing a client sent produced an ERROR log
 * line (or a stack in the log).
 */
export function useHostileApp(adapter: AdapterKind): HostileApp {
  const logger = new CapturingLogger();
  let running: RunningApp | undefined;
  beforeAll(async () => {
    running = await startMrtrApp(hostileModule(), adapter, { logger });
  });
  afterAll(() => running?.close());
  afterEach(() => {
    expect(logger.errors).toEqual([]);
  });
  return {
    get server(): RunningApp {
      return running!;
    },
    call: (name, extra, caps = {}) => rpc(running!.url, 'tools/call', { name, ...extra }, { capabilities: caps }),
  };
}
