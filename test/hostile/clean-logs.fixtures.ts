import { Injectable, type LoggerService, Module, type DynamicModule } from '@nestjs/common';
import {
  ElicitationContext,
  McpError,
  McpModule,
  McpProgressReporter,
  McpResourceTemplate,
  McpTool,
} from '../../src/index.js';

/** Every line any logger level receives, with its level, for assertions on what clients can make us log. */
export class RecordingLogger implements LoggerService {
  readonly lines: Array<{ level: string; text: string }> = [];

  private record(level: string, message: unknown, rest: unknown[]): void {
    this.lines.push({ level, text: [message, ...rest].map((part) => String(part)).join(' | ') });
  }
  log(message: unknown, ...rest: unknown[]): void {
    this.record('log', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.record('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.record('verbose', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.record('warn', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.record('error', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.record('fatal', message, rest);
  }

  get errors(): string[] {
    return this.lines.filter((l) => l.level === 'error' || l.level === 'fatal').map((l) => l.text);
  }
}

/** What the handlers saw when their call was stopped. */
@Injectable()
export class AbortProbe {
  readonly reasons: unknown[] = [];
  private waiters: Array<() => void> = [];
  started = 0;

  /** Resolves once `count` handlers have started waiting. */
  async whenStarted(count: number): Promise<void> {
    while (this.started < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  markStarted(): void {
    this.started++;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once `count` reasons were recorded. */
  async whenAborted(count: number, timeoutMs = 5_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.reasons.length < count) {
      if (Date.now() > until) throw new Error(`${this.reasons.length} of ${count} calls saw their abort`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

@Injectable()
export class CleanLogTools {
  constructor(
    private readonly progress: McpProgressReporter,
    private readonly elicitation: ElicitationContext,
    private readonly probe: AbortProbe,
  ) {}

  /** The cancellation pattern the README shows: reject with the signal's reason. */
  @McpTool({ name: 'wait_for_abort', description: 'Waits until the call is stopped' })
  async waitForAbort(): Promise<string> {
    const signal = this.progress.signal!;
    this.probe.markStarted();
    try {
      await new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    } catch (reason) {
      this.probe.reasons.push(reason);
      throw reason;
    }
    return 'unreachable';
  }

  @McpTool({ name: 'ask_name', description: 'Asks for a name' })
  async askName(): Promise<string> {
    this.probe.markStarted();
    const answer = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    return answer.action === 'accept' ? answer.content.name : 'nobody';
  }

  /** A tool that fails the usual way, its message quoting the client's input. */
  @McpTool({ name: 'file_note', description: 'Files a note under a title' })
  fileNote(input: { title?: unknown }): never {
    throw new Error(`Cannot file a note titled ${String(input.title)}`);
  }

  @McpResourceTemplate({ uriTemplate: 'notes://{id}', name: 'note', description: 'A note by id' })
  note(input: { id: string; uri: string }): string {
    if (input.id !== 'one') throw McpError.resourceNotFound(input.uri);
    return 'the first note';
  }
}

export function cleanLogsModule(): DynamicModule {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'clean-logs',
        version: '1.0.0',
        mrtr: { secrets: ['clean-logs-secret-0123456789-abcdefghijkl'] },
      }),
    ],
    providers: [CleanLogTools, AbortProbe],
  })
  class CleanLogsModule {}
  return { module: CleanLogsModule };
}
