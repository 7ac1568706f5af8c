import type { ArgumentsHost, ExecutionContext, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { SkipThrottle, Throttle, type ThrottlerModuleOptions, ThrottlerStorageService } from '@nestjs/throttler';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { MCP_RATE_LIMITED } from './mcp-rate-limited.exception.js';
import { McpThrottlerGuard } from './mcp-throttler.guard.js';

class Tools {
  ping(): string {
    return 'pong';
  }

  @Throttle({ default: { limit: () => 3, ttl: 60_000 } })
  resolved(): string {
    return 'resolved';
  }

  @SkipThrottle({ burst: true })
  noBurst(): string {
    return 'noBurst';
  }
}

function exchange(name: string, userAgent?: string): McpExchange {
  const request = { headers: userAgent ? { 'user-agent': userAgent } : {} };
  return {
    id: 1,
    method: 'tools/call',
    params: { name },
    protocolVersion: '2026-07-28',
    clientCapabilities: {},
    transport: { kind: 'http', request, clientAddress: '10.0.0.1' },
    signal: new AbortController().signal,
    notify: () => undefined,
  } as unknown as McpExchange;
}

/** The context Nest builds for an MCP handler: `[input, exchange]`, of type `'mcp'` (made by hand, not Nest's internal class). */
class HandlerContext implements ExecutionContext {
  constructor(
    private readonly args: unknown[],
    private readonly type: Type,
    private readonly handler: (...args: never[]) => unknown,
    private readonly kind: string,
  ) {}
  getClass<T>(): Type<T> {
    return this.type as Type<T>;
  }
  getHandler(): (...args: never[]) => unknown {
    return this.handler;
  }
  getArgs<T extends unknown[]>(): T {
    return this.args as T;
  }
  getArgByIndex<T>(index: number): T {
    return this.args[index] as T;
  }
  getType<T extends string>(): T {
    return this.kind as T;
  }
  switchToRpc(): ReturnType<ArgumentsHost['switchToRpc']> {
    return { getData: () => this.args[0], getContext: () => this.args[1] } as ReturnType<ArgumentsHost['switchToRpc']>;
  }
  switchToHttp(): ReturnType<ArgumentsHost['switchToHttp']> {
    return {
      getRequest: () => this.args[0],
      getResponse: () => this.args[1],
      getNext: () => this.args[2],
    } as ReturnType<ArgumentsHost['switchToHttp']>;
  }
  switchToWs(): ReturnType<ArgumentsHost['switchToWs']> {
    return { getClient: () => this.args[0], getData: () => this.args[1] } as ReturnType<ArgumentsHost['switchToWs']>;
  }
}

function contextOf(method: keyof Tools, ex: McpExchange, type = 'mcp'): ExecutionContext {
  return new HandlerContext([{}, ex], Tools, Tools.prototype[method], type);
}

async function guardWith(options: ThrottlerModuleOptions, storage = new ThrottlerStorageService()) {
  const guard = new McpThrottlerGuard(options, storage, new Reflector());
  await guard.onModuleInit();
  return { guard, storage };
}

/** How many calls pass before the first refusal (at most `max`). */
async function passes(guard: McpThrottlerGuard, context: () => ExecutionContext, max = 10): Promise<number> {
  for (let i = 0; i < max; i++) {
    try {
      await guard.canActivate(context());
    } catch (error) {
      expect(error).toMatchObject({ code: MCP_RATE_LIMITED });
      return i;
    }
  }
  return max;
}

describe('McpThrottlerGuard', () => {
  it('passes other execution contexts untouched', async () => {
    const { guard } = await guardWith([{ limit: 0, ttl: 1000 }]);
    await expect(guard.canActivate(contextOf('ping', exchange('ping'), 'http'))).resolves.toBe(true);
  });

  it('counts against every throttler in turn, and honours @SkipThrottle per throttler name', async () => {
    const { guard } = await guardWith([
      { name: 'burst', limit: 2, ttl: 1000 },
      { name: 'sustained', limit: 4, ttl: 60_000 },
    ]);
    expect(await passes(guard, () => contextOf('ping', exchange('ping')))).toBe(2);
    // `burst` skipped: only `sustained` (4 a minute) counts, with its own key per tool.
    expect(await passes(guard, () => contextOf('noBurst', exchange('noBurst')))).toBe(4);
  });

  it('calls a limit given as a function on every request', async () => {
    const { guard } = await guardWith([{ limit: 1, ttl: 60_000 }]);
    expect(await passes(guard, () => contextOf('resolved', exchange('resolved')))).toBe(3);
  });

  it("keeps the application's getTracker, skipIf and ignoreUserAgents", async () => {
    const trackers: string[] = [];
    const { guard } = await guardWith({
      throttlers: [{ limit: 1, ttl: 60_000 }],
      getTracker: async (req) => {
        const tracker = `ua:${String((req['headers'] as Record<string, unknown>)['user-agent'])}`;
        trackers.push(tracker);
        return tracker;
      },
      skipIf: (context) => (context.getArgByIndex<McpExchange>(1).params['name'] as string) === 'skipped',
      ignoreUserAgents: [/^robot/],
    });
    expect(await passes(guard, () => contextOf('ping', exchange('ping', 'alice')))).toBe(1);
    expect(await passes(guard, () => contextOf('ping', exchange('ping', 'bob')))).toBe(1);
    expect(await passes(guard, () => contextOf('ping', exchange('ping', 'robot-7')))).toBe(10);
    expect(await passes(guard, () => contextOf('ping', exchange('skipped', 'alice')))).toBe(10);
    expect(trackers).toEqual(['ua:alice', 'ua:alice', 'ua:bob', 'ua:bob']);
  });

  it('keys the storage by throttler, method, target and the client address when there is no principal', async () => {
    const { guard, storage } = await guardWith([{ limit: 5, ttl: 60_000 }]);
    await guard.canActivate(contextOf('ping', exchange('ping')));
    expect([...storage.storage.keys()]).toEqual(['mcp:default:tools/call:ping:address:10.0.0.1']);
  });
});

class Decorated {
  @Throttle({ default: { limit: 1, ttl: 1000, blockDuration: 30_000, getTracker: () => 'everyone' } })
  shared(): string {
    return 'shared';
  }
}

function decoratedContext(ex: McpExchange): ExecutionContext {
  return new HandlerContext([{}, ex], Decorated, Decorated.prototype.shared, 'mcp');
}

describe("McpThrottlerGuard through throttler's own canActivate", () => {
  it("takes a handler's getTracker and blockDuration from @Throttle(), and Retry-After from the block", async () => {
    const { guard, storage } = await guardWith([{ limit: 5, ttl: 60_000 }]);
    const fromAddress = (address: string) => {
      const ex = exchange('shared');
      return { ...ex, transport: { ...ex.transport, clientAddress: address } } as McpExchange;
    };
    await expect(guard.canActivate(decoratedContext(fromAddress('10.0.0.1')))).resolves.toBe(true);
    // Another address, the same tracker: the handler's getTracker counts every caller together.
    const refused = await guard.canActivate(decoratedContext(fromAddress('10.0.0.2'))).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: MCP_RATE_LIMITED,
      httpStatus: 429,
      data: { retryAfterMs: 30_000 },
      httpHeaders: { 'retry-after': '30' },
    });
    expect([...storage.storage.keys()]).toEqual(['mcp:default:tools/call:shared:everyone']);
  });

  it('accepts a limit given as a numeric string (as from ConfigService)', async () => {
    const { guard } = await guardWith([{ limit: '2' as unknown as number, ttl: 60_000 }]);
    expect(await passes(guard, () => contextOf('ping', exchange('ping')))).toBe(2);
  });

  it("keeps other contexts out for a subclass whose shouldSkip defers to the guard's", async () => {
    class SkippingGuard extends McpThrottlerGuard {
      protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
        const { params } = context.getArgByIndex<McpExchange>(1);
        return params['name'] === 'ping' ? Promise.resolve(true) : super.shouldSkip(context);
      }
    }
    const guard = new SkippingGuard([{ limit: 1, ttl: 60_000 }], new ThrottlerStorageService(), new Reflector());
    await guard.onModuleInit();
    expect(await passes(guard, () => contextOf('ping', exchange('ping')))).toBe(10);
    expect(await passes(guard, () => contextOf('ping', exchange('other'), 'http'))).toBe(10);
    expect(await passes(guard, () => contextOf('ping', exchange('other')))).toBe(1);
  });
});
