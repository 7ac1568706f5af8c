import { jest } from '@jest/globals';
import {
  type CallHandler,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  type INestApplication,
  Logger,
  type NestInterceptor,
  type PipeTransform,
  type Provider,
  type Type,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import { APP_GUARD, ExternalContextCreator } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { inspect } from 'node:util';
import { catchError, map, type Observable, of, throwError } from 'rxjs';
import { McpArgs, McpCtx } from '../decorators/mcp-param.decorators.js';
import { InputRequiredException } from '../mrtr/exceptions/input-required.exception.js';
import { type McpCallScope, mcpCallScope } from '../mrtr/mcp-call-scope.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { InputRequiredResult } from '../protocol/wire-types.js';
import { McpHandlerFactory } from './mcp-handler.factory.js';

class Deny implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

/** What a global catch-all interceptor saw: the values and the errors. */
class SeenByInterceptor implements NestInterceptor {
  readonly values: unknown[] = [];
  readonly errors: unknown[] = [];
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((value) => {
        this.values.push(value);
        return value;
      }),
      catchError((error: unknown) => {
        this.errors.push(error);
        return of('swallowed');
      }),
    );
  }
}

/** A custom parameter decorator of the kind applications write with Nest's public helper. */
const ContextType = createParamDecorator((_data: unknown, context: ExecutionContext) => context.getType<string>());

@Injectable()
class Plain {
  value(input: { n: number }): number {
    return input.n + 1;
  }
  observable(): unknown {
    return of(1, 2, 3);
  }
  fails(): never {
    throw new Error('boom');
  }
  asks(): never {
    throw new InputRequiredException({}, []);
  }
  contextType(@ContextType() type: string): string {
    return type;
  }
}

/** A tool error carrying client text that imitates a log line of its own. */
const FORGED = 'no table for "x\r\n[Nest] 1  - 01/01/2026, 00:00:00   ERROR [Forged] pwned"';

@Injectable()
class Forging {
  throws(): never {
    throw new Error(FORGED);
  }
  async rejects(): Promise<never> {
    throw new Error(FORGED);
  }
  errors(): Observable<never> {
    return throwError(() => new Error(FORGED));
  }
}

/** Doubles every number it is handed. */
class Double implements PipeTransform {
  transform(value: unknown): unknown {
    return typeof value === 'number' ? value * 2 : value;
  }
}

@Injectable()
class WithParams {
  both(@McpCtx() ctx: McpExchange, @McpArgs('n') n: number, @McpArgs() input: object): unknown[] {
    return [n, ctx, input];
  }
  @UsePipes(Double)
  doubled(@McpArgs('n') n: number): number {
    return n;
  }
}

@Injectable()
class Async {
  async value(input: { n: number }): Promise<number> {
    return input.n + 1;
  }
  async observable(): Promise<unknown> {
    return of(1, 2, 3);
  }
  async fails(): Promise<never> {
    throw new Error('late boom');
  }
}

@Injectable()
class Guarded {
  @UseGuards(Deny)
  value(): string {
    return 'ran';
  }
}

const exchange = {} as McpExchange;

async function appWith(
  provider: Type<unknown>,
  extra: Provider[] = [],
  globals: { guard?: CanActivate; interceptor?: NestInterceptor } = {},
) {
  const moduleRef = await Test.createTestingModule({ providers: [McpHandlerFactory, provider, ...extra] }).compile();
  const app: INestApplication = moduleRef.createNestApplication({ logger: false });
  if (globals.guard) app.useGlobalGuards(globals.guard);
  if (globals.interceptor) app.useGlobalInterceptors(globals.interceptor);
  await app.init();
  return app;
}

/** The errors Nest's external exception handler (logger context `ExceptionsHandler`) logged. */
function exceptionsHandlerLog(): () => number {
  const error = jest.spyOn(Logger.prototype, 'error');
  return () =>
    error.mock.contexts.filter((logger) => (logger as { context?: string }).context === 'ExceptionsHandler').length;
}

/** A call scope whose `seal` answers one fixed round, as the replay engine's does. */
function scopeSealing(round: InputRequiredResult): McpCallScope {
  return { exchange, session: {} as ReplaySession, seal: () => round };
}

describe('McpHandlerFactory', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    jest.restoreAllMocks();
    await app?.close();
    app = undefined;
  });

  describe('with nothing bound (no guard, interceptor, filter or parameter decorator anywhere)', () => {
    it('runs the method, with the pipeline built once when the handler is created', async () => {
      app = await appWith(Plain);
      const create = jest.spyOn(app.get(ExternalContextCreator), 'create');
      const handler = app.get(McpHandlerFactory).create(app.get(Plain), 'value');
      await expect(handler.invoke({ n: 1 }, exchange)).resolves.toBe(2);
      await expect(handler.invoke({ n: 2 }, exchange)).resolves.toBe(3);
      // Nothing is bound: the method is called directly, no pipeline is built (see the next tests).
      expect(create).not.toHaveBeenCalled();
    });

    it('awaits a method that returns a promise, failures included', async () => {
      app = await appWith(Async);
      const factory = app.get(McpHandlerFactory);
      await expect(factory.create(app.get(Async), 'value').invoke({ n: 1 }, exchange)).resolves.toBe(2);
      await expect(factory.create(app.get(Async), 'observable').invoke({}, exchange)).resolves.toBe(3);
      await expect(factory.create(app.get(Async), 'fails').invoke({}, exchange)).rejects.toThrow('late boom');
    });

    it('resolves an Observable to its last value, as the pipeline does', async () => {
      app = await appWith(Plain);
      await expect(app.get(McpHandlerFactory).create(app.get(Plain), 'observable').invoke({}, exchange)).resolves.toBe(
        3,
      );
    });

    it("hands an error on after Nest's external exception handler saw it (logged as before), the signal untouched", async () => {
      app = await appWith(Plain);
      const logged = exceptionsHandlerLog();
      const factory = app.get(McpHandlerFactory);
      await expect(factory.create(app.get(Plain), 'fails').invoke({}, exchange)).rejects.toThrow('boom');
      expect(logged()).toBe(1);
      await expect(factory.create(app.get(Plain), 'asks').invoke({}, exchange)).rejects.toBeInstanceOf(
        InputRequiredException,
      );
      expect(logged()).toBe(1);
    });

    it("turns the signal into the call's sealed round, as our interceptor does on the pipeline", async () => {
      app = await appWith(Plain);
      const round: InputRequiredResult = { resultType: 'input_required', inputRequests: {}, requestState: 'sealed' };
      const handler = app.get(McpHandlerFactory).create(app.get(Plain), 'asks');
      await expect(mcpCallScope.run(scopeSealing(round), () => handler.invoke({}, exchange))).resolves.toBe(round);
    });

    it('is called without the pipeline while nothing is bound, and through it with a global enhancer', async () => {
      const pipelineRuns = async (globals: { guard?: CanActivate }) => {
        app = await appWith(Plain, [], globals);
        const creator = app.get(ExternalContextCreator);
        const create = creator.create.bind(creator);
        let runs = 0;
        jest.spyOn(creator, 'create').mockImplementation((...args: Parameters<typeof creator.create>) => {
          const run = create(...args);
          return (...callArgs: unknown[]) => {
            runs++;
            return run(...callArgs);
          };
        });
        await app
          .get(McpHandlerFactory)
          .create(app.get(Plain), 'value')
          .invoke({ n: 1 }, exchange)
          .catch(() => undefined);
        jest.restoreAllMocks();
        await app.close();
        app = undefined;
        return runs;
      };
      expect(await pipelineRuns({})).toBe(0);
      expect(await pipelineRuns({ guard: new Deny() })).toBe(1);
    });

    it('logs a failure the way the pipeline does (once, under ExceptionsHandler, the error itself)', async () => {
      const thrown = (through: 'direct' | 'pipeline') => async () => {
        app = await appWith(
          Plain,
          [],
          through === 'pipeline' ? { interceptor: { intercept: (_context, next) => next.handle() } } : {},
        );
        const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
        await app
          .get(McpHandlerFactory)
          .create(app.get(Plain), 'fails')
          .invoke({}, exchange)
          .catch(() => undefined);
        const logged = error.mock.calls.filter(
          (_, i) => (error.mock.contexts[i] as { context?: string }).context === 'ExceptionsHandler',
        );
        jest.restoreAllMocks();
        await app.close();
        app = undefined;
        return logged.map(([first]) => (first instanceof Error ? first.message : first));
      };
      const direct = await thrown('direct')();
      expect(direct).toEqual(['boom']);
      // With a global interceptor the pipeline runs, and Nest's own handler logs: the same line.
      const viaPipeline = await thrown('pipeline')();
      expect(viaPipeline).toEqual(direct);
    });

    it("leaves the method's own metadata as it was", async () => {
      app = await appWith(Guarded);
      const method = Guarded.prototype.value;
      const before = Reflect.getMetadataKeys(method).map((key) => [key, Reflect.getMetadata(key, method)]);
      app.get(McpHandlerFactory).create(app.get(Guarded), 'value');
      expect(Reflect.getMetadataKeys(method).map((key) => [key, Reflect.getMetadata(key, method)])).toEqual(before);
    });
  });

  describe('whatever the application binds still runs', () => {
    it('a guard on the method', async () => {
      app = await appWith(Guarded);
      const handler = app.get(McpHandlerFactory).create(app.get(Guarded), 'value');
      await expect(handler.invoke({}, exchange)).rejects.toBeInstanceOf(ForbiddenException);
    });

    it('a global guard (useGlobalGuards) and an APP_GUARD provider', async () => {
      app = await appWith(Plain, [], { guard: new Deny() });
      await expect(
        app.get(McpHandlerFactory).create(app.get(Plain), 'value').invoke({ n: 1 }, exchange),
      ).rejects.toBeInstanceOf(ForbiddenException);
      await app.close();
      app = await appWith(Plain, [{ provide: APP_GUARD, useClass: Deny }]);
      await expect(
        app.get(McpHandlerFactory).create(app.get(Plain), 'value').invoke({ n: 1 }, exchange),
      ).rejects.toBeInstanceOf(ForbiddenException);
    });

    it('a global interceptor, which sees the sealed round as a value and never the signal', async () => {
      const seen = new SeenByInterceptor();
      app = await appWith(Plain, [], { interceptor: seen });
      const round: InputRequiredResult = { resultType: 'input_required', inputRequests: {}, requestState: 'sealed' };
      const handler = app.get(McpHandlerFactory).create(app.get(Plain), 'asks');
      await expect(mcpCallScope.run(scopeSealing(round), () => handler.invoke({}, exchange))).resolves.toBe(round);
      await expect(app.get(McpHandlerFactory).create(app.get(Plain), 'fails').invoke({}, exchange)).resolves.toBe(
        'swallowed',
      );
      expect(seen.values).toEqual([round]);
      expect(seen.errors).toHaveLength(1);
      expect(seen.errors[0]).toHaveProperty('message', 'boom');
    });

    it('@McpArgs and @McpCtx, in any position, and the pipes declared on the handler', async () => {
      app = await appWith(WithParams);
      const factory = app.get(McpHandlerFactory);
      const input = { n: 4 };
      await expect(factory.create(app.get(WithParams), 'both').invoke(input, exchange)).resolves.toEqual([
        4,
        exchange,
        input,
      ]);
      await expect(factory.create(app.get(WithParams), 'doubled').invoke(input, exchange)).resolves.toBe(8);
    });

    it("a parameter decorator made with createParamDecorator, which gets the 'mcp' execution context", async () => {
      app = await appWith(Plain);
      const handler = app.get(McpHandlerFactory).create(app.get(Plain), 'contextType');
      await expect(handler.invoke({}, exchange)).resolves.toBe('mcp');
    });
  });

  describe('an error carrying client text, as Nest logs it (util.inspect, as its ConsoleLogger prints)', () => {
    it.each(['direct', 'pipeline'] as const)(
      'through the %s path: logged once with its stack, no line of it starts with the client text',
      async (through) => {
        app = await appWith(
          Forging,
          [],
          through === 'pipeline' ? { interceptor: { intercept: (_context, next) => next.handle() } } : {},
        );
        const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
        const factory = app.get(McpHandlerFactory);
        for (const method of ['throws', 'rejects', 'errors']) {
          error.mockClear();
          const thrown = await factory
            .create(app.get(Forging), method)
            .invoke({}, exchange)
            .then(
              () => undefined,
              (reason: unknown) => reason,
            );
          // The caller (the client's isError result) gets the message as the tool wrote it.
          expect(thrown).toHaveProperty('message', FORGED);
          const logged = error.mock.calls
            .filter((_, i) => (error.mock.contexts[i] as { context?: string }).context === 'ExceptionsHandler')
            .map(([first]) => first);
          expect(logged).toEqual([thrown]);
          const printed = inspect(logged[0]).split(/\r\n|\r|\n/);
          expect(printed[0]).toContain('ERROR [Forged] pwned');
          expect(printed.filter((line) => line.startsWith('[Nest]'))).toEqual([]);
          expect(printed.slice(1).every((line) => /^ {4}at /.test(line))).toBe(true);
        }
      },
    );
  });
});
