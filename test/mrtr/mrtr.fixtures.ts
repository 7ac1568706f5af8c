import { Injectable, Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  ElicitationContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  isInputRequired,
  type McpModuleOptions,
} from '../../src/index.js';

/** Shared by every app in these specs, so that two apps configured alike can read each other's tokens. */
export const SECRET_A = 'mrtr-e2e secret A: 0123456789abcdefghijklmnopqrstuvwxyz';
export const SECRET_B = 'mrtr-e2e secret B: zyxwvutsrqponmlkjihgfedcba9876543210';

/** Counts how many times each handler body started (once per round trip under replay). */
export class InvocationCounter {
  private readonly counts = new Map<string, number>();

  hit(name: string): void {
    this.counts.set(name, this.of(name) + 1);
  }

  of(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  /** A copy of every count, to compare before/after a rejected retry. */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}

export class AskNDto {
  @IsInt() @Min(1) @Max(200) n!: number;
}

export class OrderDto {
  @IsString() item!: string;
  @IsInt() @Min(1) qty!: number;
  @IsOptional() @IsString() note?: string;
}

/**
 * Tools that elicit, each counting its invocations. Every handler hits its counter first, so a
 * rejected retry (handler must not run) leaves the count unchanged.
 */
@Injectable()
export class MrtrTools {
  readonly counter = new InvocationCounter();
  /** What broad catches saw, for the swallowed-signal hazard. */
  readonly caught: string[] = [];

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'one_question', description: 'Asks for a name, then greets' })
  async oneQuestion(): Promise<string> {
    this.counter.hit('one_question');
    const answer = await this.elicitation.elicit('What is your name?', (s) => s.string('name', { title: 'Name' }));
    if (answer.action !== 'accept') return `no name (${answer.action})`;
    return `Hello, ${answer.content.name}!`;
  }

  @McpTool({ name: 'three_questions', description: 'Asks three questions, one round each' })
  async threeQuestions(): Promise<object> {
    this.counter.hit('three_questions');
    const name = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    const age = await this.elicitation.elicit('Your age?', (s) => s.integer('age', { minimum: 0, maximum: 150 }));
    const color = await this.elicitation.elicit('Favourite colour?', (s) =>
      s.choose('color', ['red', 'green', 'blue']),
    );
    return {
      name: name.action === 'accept' ? name.content.name : `(${name.action})`,
      age: age.action === 'accept' ? age.content.age : `(${age.action})`,
      color: color.action === 'accept' ? color.content.color : `(${color.action})`,
    };
  }

  @McpTool({ name: 'batched', description: 'Asks two forms and the roots in one round' })
  async batched(): Promise<string> {
    this.counter.hit('batched');
    const [contact, confirm, roots] = await this.elicitation.batch((b) => [
      b.elicit('Contact e-mail?', (s) => s.string('email', { format: 'email' }), { key: 'contact' }),
      b.elicit('Subscribe to the newsletter?', (s) => s.boolean('subscribe'), { key: 'newsletter' }),
      b.listRoots({ key: 'workspace' }),
    ]);
    const email = contact.action === 'accept' ? contact.content.email : `(${contact.action})`;
    const subscribe = confirm.action === 'accept' ? String(confirm.content.subscribe) : `(${confirm.action})`;
    return `email=${email}; subscribe=${subscribe}; roots=${roots.roots.map((r) => r.uri).join(',')}`;
  }

  @McpTool({ name: 'ask_n', description: 'Asks n questions, one per round' })
  async askN(input: AskNDto): Promise<string> {
    this.counter.hit('ask_n');
    const values: string[] = [];
    for (let i = 1; i <= input.n; i++) {
      const answer = await this.elicitation.elicit(`Question ${i} of ${input.n}: a value?`, (s) => s.string('value'));
      values.push(answer.action === 'accept' ? answer.content.value : `(${answer.action})`);
    }
    return `answers=${values.length}; last=${values.at(-1)}`;
  }

  @McpTool({ name: 'place_order', description: 'Confirms an order (arguments are bound to the flow)' })
  async placeOrder(input: OrderDto): Promise<string> {
    this.counter.hit('place_order');
    const answer = await this.elicitation.elicit(`Order ${input.qty} x ${input.item}?`, (s) => s.boolean('confirm'));
    return answer.action === 'accept' && answer.content.confirm
      ? `ordered ${input.qty} x ${input.item}`
      : 'not ordered';
  }

  @McpTool({ name: 'adaptive', description: 'Elicits only when the client can answer' })
  async adaptive(): Promise<string> {
    this.counter.hit('adaptive');
    if (!this.elicitation.canElicit()) return 'size=M (default, client cannot elicit)';
    const answer = await this.elicitation.elicit('Which size?', (s) => s.choose('size', ['S', 'M', 'L']));
    return answer.action === 'accept' ? `size=${answer.content.size}` : `size=M (${answer.action})`;
  }

  @McpTool({ name: 'sign_in', description: 'Sends the user to a URL' })
  async signIn(): Promise<string> {
    this.counter.hit('sign_in');
    const answer = await this.elicitation.elicitUrl('Please sign in', 'https://login.example.com/start');
    return `sign-in ${answer.action}`;
  }

  /** Breaks the idempotency contract: the question changes on every run. */
  @McpTool({ name: 'fickle', description: 'Asks a different question every time' })
  async fickle(): Promise<string> {
    this.counter.hit('fickle');
    const answer = await this.elicitation.elicit(`Attempt ${this.counter.of('fickle')}: continue?`, (s) =>
      s.boolean('go'),
    );
    return answer.action;
  }

  /** The documented hazard: a broad catch that swallows the signal. */
  @McpTool({ name: 'broad_catch', description: 'Swallows the input-required signal' })
  async broadCatch(): Promise<string> {
    this.counter.hit('broad_catch');
    try {
      const answer = await this.elicitation.elicit('Proceed?', (s) => s.boolean('ok'));
      return `answered ${answer.action}`;
    } catch (e) {
      this.caught.push((e as Error).name);
      return `swallowed:${(e as Error).name}`;
    }
  }

  /** The documented remedy: a broad catch that lets the signal through. */
  @McpTool({ name: 'careful_catch', description: 'Rethrows the input-required signal' })
  async carefulCatch(): Promise<string> {
    this.counter.hit('careful_catch');
    try {
      const answer = await this.elicitation.elicit('Proceed?', (s) => s.boolean('ok'));
      return `answered ${answer.action}${answer.action === 'accept' ? ` ok=${answer.content.ok}` : ''}`;
    } catch (e) {
      if (isInputRequired(e)) throw e;
      return 'failed';
    }
  }

  @McpTool({ name: 'boom', description: 'Fails with an ordinary error' })
  boom(): never {
    this.counter.hit('boom');
    throw new Error('kaboom');
  }
}

/** A prompt that elicits (prompts/get takes part in MRTR). */
@Injectable()
export class MrtrPrompts {
  readonly counter = new InvocationCounter();

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpPrompt({ name: 'story', description: 'Asks for a topic, then writes the prompt' })
  async story(): Promise<string> {
    this.counter.hit('story');
    const answer = await this.elicitation.elicit('Which topic?', (s) => s.string('topic'));
    return answer.action === 'accept'
      ? `Write a short story about ${answer.content.topic}.`
      : `Write a story (${answer.action}).`;
  }
}

/** A static resource and a template resource that elicit (resources/read takes part in MRTR). */
@Injectable()
export class MrtrResources {
  readonly counter = new InvocationCounter();

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpResource({ uri: 'mrtr://vault', name: 'vault', description: 'Opens after a passphrase', mimeType: 'text/plain' })
  async vault(): Promise<string> {
    this.counter.hit('vault');
    const answer = await this.elicitation.elicit('Passphrase hint: your favourite fruit?', (s) => s.string('fruit'));
    return answer.action === 'accept' ? `vault opened with ${answer.content.fruit}` : `vault closed (${answer.action})`;
  }

  @McpResourceTemplate({
    uriTemplate: 'mrtr://notes/{id}',
    name: 'note',
    description: 'A note, after confirmation',
    mimeType: 'text/plain',
  })
  async note({ id }: { uri: string; id: string }): Promise<string> {
    this.counter.hit(`note:${id}`);
    const answer = await this.elicitation.elicit(`Show note ${id}?`, (s) => s.boolean('show'));
    return answer.action === 'accept' && answer.content.show ? `note ${id}: buy milk` : `note ${id} hidden`;
  }
}

export interface MrtrModuleSetup {
  /** Options of McpModule.forRoot, merged over name/version and secrets [SECRET_A]. */
  mcp?: Partial<McpModuleOptions>;
  /** Modules imported before McpModule. */
  importsBefore?: Array<Type<unknown> | DynamicModule>;
  /** Modules imported after McpModule. */
  importsAfter?: Array<Type<unknown> | DynamicModule>;
  providers?: Provider[];
}

/** A fresh application module with the elicitation fixtures (one class per call: apps never share state). */
export function mrtrModule(setup: MrtrModuleSetup = {}): Type<unknown> {
  @Module({
    imports: [
      ...(setup.importsBefore ?? []),
      McpModule.forRoot({ name: 'mrtr-e2e', version: '1.0.0', mrtr: { secrets: [SECRET_A] }, ...setup.mcp }),
      ...(setup.importsAfter ?? []),
    ],
    providers: [MrtrTools, MrtrPrompts, MrtrResources, ...(setup.providers ?? [])],
  })
  class MrtrAppModule {}
  return MrtrAppModule;
}
