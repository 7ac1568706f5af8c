import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import {
  ElicitationContext,
  McpClientLogger,
  McpModule,
  type McpModuleOptions,
  McpPrincipalSource,
  McpProgressReporter,
  McpResource,
  McpTool,
  type McpExchange,
} from '../../src/index.js';

/** The caller is whoever the `x-user` header names (a stand-in for an authenticated principal). */
export class HeaderPrincipalSource extends McpPrincipalSource {
  resolve(exchange: McpExchange): string | null {
    if (exchange.transport.kind !== 'http') return null;
    const user = exchange.transport.request.headers['x-user'];
    return typeof user === 'string' ? user : null;
  }
}

/** What the handlers saw, for assertions on runs and cancellation. */
@Injectable()
export class LegacyProbe {
  readonly runs: Record<string, number> = {};
  lastSignal: AbortSignal | undefined;

  count(tool: string): void {
    this.runs[tool] = (this.runs[tool] ?? 0) + 1;
  }
}

@Injectable()
export class LegacyTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    private readonly progress: McpProgressReporter,
    private readonly log: McpClientLogger,
    private readonly probe: LegacyProbe,
  ) {}

  @McpTool({ name: 'greet', description: 'Greets without asking anything' })
  greet(): string {
    this.probe.count('greet');
    this.log.info('greeting');
    return 'Hello!';
  }

  @McpTool({ name: 'ask_name', description: 'Asks for a name (form elicitation)' })
  async askName(): Promise<string> {
    this.probe.count('ask_name');
    const answer = await this.elicitation.elicit('Your name?', (s) => s.string('name', { minLength: 2 }));
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `No name (${answer.action})`;
  }

  @McpTool({ name: 'three_questions', description: 'Asks three questions, one per round' })
  async threeQuestions(): Promise<string> {
    this.probe.count('three_questions');
    const answers: string[] = [];
    for (const field of ['first', 'second', 'third']) {
      const answer = await this.elicitation.elicit(`The ${field}?`, (s) => s.string(field));
      answers.push(
        answer.action === 'accept' ? String((answer.content as Record<string, string>)[field]) : answer.action,
      );
    }
    return answers.join(', ');
  }

  @McpTool({ name: 'capital', description: 'Asks the client model (sampling)' })
  async capital(): Promise<string> {
    const answer = await this.elicitation.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
      maxTokens: 20,
    });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return `${answer.model} says ${content?.type === 'text' ? content.text : '?'}`;
  }

  @McpTool({ name: 'roots', description: 'Lists the client roots' })
  async roots(): Promise<string> {
    const { roots } = await this.elicitation.listRoots();
    return roots.map((r) => r.uri).join(' ');
  }

  @McpTool({ name: 'sign_in', description: 'Sends the user to a URL' })
  async signIn(): Promise<string> {
    const answer = await this.elicitation.elicitUrl('Please sign in', 'https://example.com/sign-in');
    return `url ${answer.action}`;
  }

  @McpTool({ name: 'wait_for_cancel', description: 'Runs until the call is cancelled' })
  async waitForCancel(): Promise<string> {
    this.probe.count('wait_for_cancel');
    const signal = this.progress.signal!;
    this.probe.lastSignal = signal;
    this.progress.report(1, 2, 'started');
    await new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    return 'cancelled';
  }

  @McpResource({ uri: 'legacy://note', name: 'note', description: 'A note', mimeType: 'text/plain' })
  note(): string {
    return 'a note';
  }
}

export const SECRET = 'legacy-e2e-secret-0123456789-abcdefghijklmn';

/** A module with the legacy fixtures; `options` adjusts McpModule.forRoot. */
export function legacyModule(options: Partial<McpModuleOptions> = {}): DynamicModule {
  @Module({
    imports: [McpModule.forRoot({ name: 'legacy-e2e', version: '3.0.0', mrtr: { secrets: [SECRET] }, ...options })],
    providers: [LegacyTools, LegacyProbe],
  })
  class LegacyFixtureModule {}
  return { module: LegacyFixtureModule };
}
