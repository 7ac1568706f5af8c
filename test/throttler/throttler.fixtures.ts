import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { ElicitationContext, type McpExchange, McpModule, McpPrompt, McpTool } from '../../src/index.js';
import { McpThrottlerModule } from '../../src/throttler/index.js';
import { HeaderPrincipalSource } from '../legacy/legacy.fixtures.js';

/** Per tool: 2 calls a second (the module's limit), 3 (`@Throttle`), or unlimited (`@SkipThrottle`). */
@Injectable()
export class ThrottledTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'asks', description: 'Asks one question (two rounds on 2026-07-28)' })
  async asks(): Promise<string> {
    const answer = await this.elicitation.elicit('Sure?', (s) => s.boolean('ok'));
    return answer.action;
  }

  @McpTool({ name: 'ping', description: 'Answers pong' })
  ping(): string {
    return 'pong';
  }

  @McpTool({ name: 'other', description: 'Another tool, counted apart' })
  other(): string {
    return 'other';
  }

  @Throttle({ default: { limit: 3, ttl: 1000 } })
  @McpTool({ name: 'roomy', description: 'Three calls a second' })
  roomy(): string {
    return 'roomy';
  }

  @SkipThrottle()
  @McpTool({ name: 'free', description: 'Never throttled' })
  free(): string {
    return 'free';
  }

  @McpTool({ name: 'slow_task', description: 'A task that runs until cancelled', taskSupport: 'required' })
  async slowTask(_args: unknown, exchange: McpExchange): Promise<string> {
    await new Promise((resolve) => exchange.signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped';
  }

  @McpPrompt({ name: 'greet', description: 'A greeting' })
  greet(): string {
    return 'Hello';
  }
}

@SkipThrottle()
@Injectable()
export class UnthrottledTools {
  @McpTool({ name: 'class_free', description: 'Its class skips throttling' })
  classFree(): string {
    return 'class_free';
  }
}

export const LIMIT = 2;
export const TTL_MS = 1000;

export function throttledModule(): DynamicModule {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'throttled', version: '1.0.0', principalSource: HeaderPrincipalSource }),
      McpThrottlerModule.forRoot([{ name: 'default', limit: LIMIT, ttl: TTL_MS }]),
    ],
    providers: [ThrottledTools, UnthrottledTools],
  })
  class ThrottledModule {}
  return { module: ThrottledModule };
}
