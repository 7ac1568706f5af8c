import { jest } from '@jest/globals';
import {
  type CanActivate,
  ForbiddenException,
  Injectable,
  type INestApplication,
  type Provider,
  type Type,
  UseGuards,
} from '@nestjs/common';
import { APP_GUARD, ExternalContextCreator } from '@nestjs/core';
import { ExternalExceptionFilter } from '@nestjs/core/exceptions/external-exception-filter.js';
import { Test } from '@nestjs/testing';
import { of } from 'rxjs';
import { InputRequiredException } from '../mrtr/exceptions/input-required.exception.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpHandlerFactory } from './mcp-handler.factory.js';

class Deny implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

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

async function appWith(provider: Type<unknown>, extra: Provider[] = [], globalGuard?: CanActivate) {
  const moduleRef = await Test.createTestingModule({ providers: [McpHandlerFactory, provider, ...extra] }).compile();
  const app: INestApplication = moduleRef.createNestApplication({ logger: false });
  if (globalGuard) app.useGlobalGuards(globalGuard);
  await app.init();
  return app;
}

describe('McpHandlerFactory', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    jest.restoreAllMocks();
    await app?.close();
    app = undefined;
  });

  describe('with nothing bound (no guard, interceptor, filter or parameter decorator anywhere)', () => {
    it("calls the method without Nest's pipeline, with its arguments and result", async () => {
      app = await appWith(Plain);
      const create = jest.spyOn(app.get(ExternalContextCreator), 'create');
      const handler = app.get(McpHandlerFactory).create(app.get(Plain), 'value');
      // A synchronous method's value comes back as it is, without a promise around it.
      expect(handler.invoke({ n: 1 }, exchange)).toBe(2);
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
      const logged = jest.spyOn(
        (ExternalExceptionFilter as unknown as { logger: { error(e: unknown): void } }).logger,
        'error',
      );
      const factory = app.get(McpHandlerFactory);
      // Thrown synchronously by a synchronous method, as the call runner expects of any handler.
      expect(() => factory.create(app!.get(Plain), 'fails').invoke({}, exchange)).toThrow('boom');
      expect(logged).toHaveBeenCalledTimes(1);
      expect(() => factory.create(app!.get(Plain), 'asks').invoke({}, exchange)).toThrow(InputRequiredException);
      expect(logged).toHaveBeenCalledTimes(1);
    });
  });

  describe('whatever the application binds still runs', () => {
    it('a guard on the method', async () => {
      app = await appWith(Guarded);
      const handler = app.get(McpHandlerFactory).create(app.get(Guarded), 'value');
      await expect(handler.invoke({}, exchange)).rejects.toBeInstanceOf(ForbiddenException);
    });

    it('a global guard (useGlobalGuards) and an APP_GUARD provider', async () => {
      app = await appWith(Plain, [], new Deny());
      await expect(
        app.get(McpHandlerFactory).create(app.get(Plain), 'value').invoke({ n: 1 }, exchange),
      ).rejects.toBeInstanceOf(ForbiddenException);
      await app.close();
      app = await appWith(Plain, [{ provide: APP_GUARD, useClass: Deny }]);
      await expect(
        app.get(McpHandlerFactory).create(app.get(Plain), 'value').invoke({ n: 1 }, exchange),
      ).rejects.toBeInstanceOf(ForbiddenException);
    });
  });
});
