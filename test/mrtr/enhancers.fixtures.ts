import {
  Catch,
  Injectable,
  Module,
  UseGuards,
  UseInterceptors,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { catchError, map, of, type Observable } from 'rxjs';
import { ElicitationContext, McpModule, McpTool } from '../../src/index.js';
import { InvocationCounter, SECRET_A } from './mrtr.fixtures.js';

/** What the application's enhancers saw, by enhancer. */
export class EnhancerLog {
  readonly interceptorErrors: string[] = [];
  readonly localInterceptorErrors: string[] = [];
  readonly filterExceptions: string[] = [];
  readonly interceptorValues: unknown[] = [];
}

const nameOf = (e: unknown): string => (e instanceof Error ? e.name : typeof e);

/** The kind of global interceptor applications write: every error becomes a value. */
@Injectable()
export class CatchEverythingInterceptor implements NestInterceptor {
  constructor(private readonly log: EnhancerLog) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((value) => {
        this.log.interceptorValues.push(value);
        return value;
      }),
      catchError((error: unknown) => {
        this.log.interceptorErrors.push(nameOf(error));
        return of(`intercepted: ${nameOf(error)}`);
      }),
    );
  }
}

/** The same, declared on one handler with @UseInterceptors. */
@Injectable()
export class LocalCatchEverythingInterceptor implements NestInterceptor {
  constructor(private readonly log: EnhancerLog) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        this.log.localInterceptorErrors.push(nameOf(error));
        return of(`locally intercepted: ${nameOf(error)}`);
      }),
    );
  }
}

/** A global catch-all exception filter that turns every exception into a value. */
@Catch()
@Injectable()
export class CatchEverythingFilter implements ExceptionFilter {
  constructor(private readonly log: EnhancerLog) {}

  catch(exception: unknown, _host: ArgumentsHost): string {
    this.log.filterExceptions.push(nameOf(exception));
    return `filtered: ${nameOf(exception)}`;
  }
}

/** A response-wrapping interceptor in the style of Nest's docs ("TransformInterceptor"). */
@Injectable()
export class WrapEveryValueInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => ({ data: value })));
  }
}

class ThrowingGuard implements CanActivate {
  canActivate(): boolean {
    throw new Error('guard exploded');
  }
}

/** A guard that asks the user before letting the call through. */
@Injectable()
export class ConfirmingGuard implements CanActivate {
  constructor(private readonly elicitation: ElicitationContext) {}

  async canActivate(): Promise<boolean> {
    const answer = await this.elicitation.elicit('Are you sure?', (s) => s.boolean('sure'));
    return answer.action === 'accept' && answer.content.sure;
  }
}

@Injectable()
export class EnhancedTools {
  readonly counter = new InvocationCounter();

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'ask', description: 'Asks one question' })
  async ask(): Promise<string> {
    this.counter.hit('ask');
    const answer = await this.elicitation.elicit('Colour?', (s) => s.string('color'));
    return answer.action === 'accept' ? `colour=${answer.content.color}` : answer.action;
  }

  @McpTool({ name: 'ask_locally_intercepted', description: 'Asks one question under a local catch-all interceptor' })
  @UseInterceptors(LocalCatchEverythingInterceptor)
  async askLocallyIntercepted(): Promise<string> {
    this.counter.hit('ask_locally_intercepted');
    const answer = await this.elicitation.elicit('Colour?', (s) => s.string('color'));
    return answer.action === 'accept' ? `colour=${answer.content.color}` : answer.action;
  }

  @McpTool({ name: 'boom', description: 'Throws' })
  boom(): never {
    this.counter.hit('boom');
    throw new Error('kaboom');
  }

  @McpTool({ name: 'guarded_boom', description: 'Its guard throws' })
  @UseGuards(ThrowingGuard)
  guardedBoom(): string {
    this.counter.hit('guarded_boom');
    return 'unreachable';
  }

  @McpTool({ name: 'guard_asks', description: 'Its guard asks for confirmation' })
  @UseGuards(ConfirmingGuard)
  guardAsks(): string {
    this.counter.hit('guard_asks');
    return 'confirmed by the guard';
  }
}

/** An application with a global catch-all interceptor and a global catch-all exception filter. */
export function catchAllModule(): Type<unknown> {
  @Module({
    imports: [McpModule.forRoot({ name: 'enhancers', version: '1.0.0', mrtr: { secrets: [SECRET_A] } })],
    providers: [
      EnhancerLog,
      EnhancedTools,
      ConfirmingGuard,
      LocalCatchEverythingInterceptor,
      { provide: APP_INTERCEPTOR, useClass: CatchEverythingInterceptor },
      { provide: APP_FILTER, useClass: CatchEverythingFilter },
    ],
  })
  class CatchAllModule {}
  return CatchAllModule;
}

/** An application whose global interceptor wraps every handler value in `{ data }`. */
export function wrappingModule(): Type<unknown> {
  @Module({
    imports: [McpModule.forRoot({ name: 'wrapping', version: '1.0.0', mrtr: { secrets: [SECRET_A] } })],
    providers: [
      EnhancerLog,
      EnhancedTools,
      ConfirmingGuard,
      LocalCatchEverythingInterceptor,
      { provide: APP_INTERCEPTOR, useClass: WrapEveryValueInterceptor },
    ],
  })
  class WrappingModule {}
  return WrappingModule;
}
