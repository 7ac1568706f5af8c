import { UseFilters, UseGuards, UseInterceptors, UsePipes, type CanActivate } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import { McpArgs } from '../decorators/mcp-param.decorators.js';
import { declaresEnhancers, hasGlobalEnhancers, mayBeIntercepted } from './nest-enhancers.js';

class Allow implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}
const interceptor = { intercept: (_c: unknown, next: { handle(): unknown }) => next.handle() };
const filter = { catch: () => undefined };

class Handlers {
  plain(): void {}
  @UseGuards(Allow) guarded(): void {}
  @UseInterceptors(interceptor as never) intercepted(): void {}
  @UseFilters(filter as never) filtered(): void {}
  withArgs(@McpArgs() _input: unknown): void {}
  @UsePipes({ transform: (v: unknown) => v }) piped(): void {}
}

@UseGuards(Allow)
class GuardedClass {
  plain(): void {}
}

describe('the enhancers a handler may have (read through Nest’s public decorators)', () => {
  const handlers = new Handlers();
  it.each([
    ['guarded', true],
    ['intercepted', true],
    ['filtered', true],
    ['withArgs', true],
    ['plain', false],
    // A pipe applies only to parameters a decorator declares: without one, no pipe runs.
    ['piped', false],
  ] as const)('%s: %s', (name, expected) => {
    expect(declaresEnhancers(handlers, Handlers.prototype[name], name)).toBe(expected);
  });

  it('a guard on the class counts for its methods', () => {
    expect(declaresEnhancers(new GuardedClass(), GuardedClass.prototype.plain, 'plain')).toBe(true);
  });

  it('an interceptor of the application may wrap a method: its own, its class’s or a global one', () => {
    const config = new ApplicationConfig();
    expect(mayBeIntercepted(handlers, Handlers.prototype.intercepted, config)).toBe(true);
    expect(mayBeIntercepted(handlers, Handlers.prototype.guarded, config)).toBe(false);
    config.addGlobalInterceptor(interceptor as never);
    expect(mayBeIntercepted(handlers, Handlers.prototype.guarded, config)).toBe(true);
  });

  it('global enhancers are seen', () => {
    const config = new ApplicationConfig();
    expect(hasGlobalEnhancers(config)).toBe(false);
    config.addGlobalGuard(new Allow());
    expect(hasGlobalEnhancers(config)).toBe(true);
  });

  // Fails when a Nest release adds a kind of global enhancer: decide whether it applies to MCP
  // handlers (then hasGlobalEnhancers must read it) and add it to one of the two lists.
  it('knows every kind of global enhancer ApplicationConfig keeps', () => {
    const read = ['Guards', 'RequestGuards', 'Interceptors', 'RequestInterceptors', 'Filters', 'RequestFilters'];
    // Pipes apply to declared parameters only (declaresEnhancers sends those to the pipeline);
    // the prefix and pre-request hooks belong to HTTP routes.
    const notApplicable = ['Pipes', 'RequestPipes', 'Prefix', 'PrefixOptions', 'PreRequestHooks'];
    const kinds = Object.getOwnPropertyNames(ApplicationConfig.prototype)
      .filter((name) => name.startsWith('getGlobal'))
      .map((name) => name.slice('getGlobal'.length));
    expect(kinds.sort()).toEqual([...read, ...notApplicable].sort());
  });
});
