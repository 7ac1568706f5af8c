import { Injectable, type InjectionToken } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import { ApplicationConfig, type ContextId, ContextIdFactory, ExternalContextCreator, ModuleRef } from '@nestjs/core';
import { ExternalExceptionFilter } from '@nestjs/core/exceptions/external-exception-filter.js';
import { isObservable, lastValueFrom } from 'rxjs';
import { ROUTE_ARGS_METADATA } from '../decorators/mcp-metadata.constants.js';
import { InputRequiredException } from '../mrtr/exceptions/input-required.exception.js';
import { INPUT_REQUIRED_FILTER } from '../mrtr/input-required.filter.js';
import { INPUT_REQUIRED_INTERCEPTOR } from '../mrtr/input-required.interceptor.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { isPromiseLike, type MaybePromise } from '../protocol/maybe-promise.js';
import type { McpHandler } from './mcp-handler.js';
import { McpParamsFactory } from './mcp-params.factory.js';
import type { McpRequestContext } from './mcp-request-context.js';

/** The ExecutionContext type our handlers run under: `context.getType() === 'mcp'`. */
export const MCP_CONTEXT_TYPE = 'mcp';

const ENHANCERS = { guards: true, interceptors: true, filters: true } as const;

/**
 * A provider that is not a plain singleton (request-scoped, durable, transient, or depending on
 * one): its instance is resolved for each call.
 */
export interface ContextualProvider {
  readonly token: InjectionToken;
  /** Nest's id of the provider's wrapper: the inquirer its contextual enhancers are created for. */
  readonly id: string;
}

/**
 * Wraps a provider method so it runs through Nest's enhancer pipeline exactly as a route does
 * (global and local guards, interceptors, pipes, filters). Singletons are wrapped once at
 * bootstrap; contextual providers are resolved per call through a context id, with `REQUEST`
 * injecting the call's {@link McpRequestContext}.
 */
@Injectable()
export class McpHandlerFactory {
  private readonly paramsFactory = new McpParamsFactory();

  constructor(
    private readonly externalContextCreator: ExternalContextCreator,
    private readonly config: ApplicationConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  create(instance: object, methodName: string, contextual?: ContextualProvider): McpHandler {
    const method = (instance as Record<string, unknown>)[methodName] as (...args: unknown[]) => unknown;
    const callback = this.callbackFor(instance, method);
    const handler = { handlerClass: instance.constructor, handlerName: methodName };
    if (contextual) {
      return {
        ...handler,
        invoke: (input, exchange) => this.invokeInContext(contextual, callback, methodName, input, exchange),
      };
    }
    if (this.nothingBound(instance, method, methodName)) {
      return { ...handler, invoke: (input, exchange) => callDirectly(instance, method, input, exchange) };
    }
    const run = this.pipeline(instance, callback, methodName);
    return { ...handler, invoke: (input, exchange) => run(input, exchange) };
  }

  /**
   * Whether Nest's pipeline would run nothing but the method and our filter: no guard, interceptor
   * or exception filter on the method, its class or the application (global, including
   * `APP_GUARD`-style providers, which Nest has registered by the time handlers are created), and
   * no parameter decorator (without one, Nest applies no pipe either). Decided when the handler
   * is created, from what the pipeline itself would read then.
   */
  private nothingBound(instance: object, method: object, methodName: string): boolean {
    const none = (key: string, target: object) => ((Reflect.getMetadata(key, target) ?? []) as unknown[]).length === 0;
    for (const key of [GUARDS_METADATA, INTERCEPTORS_METADATA, EXCEPTION_FILTERS_METADATA]) {
      if (!none(key, method) || !none(key, instance.constructor)) return false;
    }
    const params: unknown = Reflect.getMetadata(ROUTE_ARGS_METADATA, instance.constructor, methodName);
    if (params !== undefined && Object.keys(params as object).length > 0) return false;
    const { config } = this;
    return (
      config.getGlobalGuards().length === 0 &&
      config.getGlobalRequestGuards().length === 0 &&
      config.getGlobalInterceptors().length === 0 &&
      config.getGlobalRequestInterceptors().length === 0 &&
      config.getGlobalFilters().length === 0 &&
      config.getGlobalRequestFilters().length === 0
    );
  }

  /** Nest's enhancer pipeline around `callback`, for one instance (and, for a contextual one, its context). */
  private pipeline(
    instance: object,
    callback: (...args: unknown[]) => unknown,
    methodName: string,
    contextId?: ContextId,
    inquirerId?: string,
  ): (input: unknown, exchange: McpExchange) => Promise<unknown> {
    return this.externalContextCreator.create(
      instance,
      callback,
      methodName,
      ROUTE_ARGS_METADATA,
      this.paramsFactory,
      contextId,
      inquirerId,
      ENHANCERS,
      MCP_CONTEXT_TYPE,
    );
  }

  private async invokeInContext(
    provider: ContextualProvider,
    callback: (...args: unknown[]) => unknown,
    methodName: string,
    input: unknown,
    exchange: McpExchange,
  ): Promise<unknown> {
    const request: McpRequestContext = Object.freeze({
      exchange,
      headers: exchange.transport.kind === 'http' ? exchange.transport.request.headers : {},
    });
    // A durable provider's ContextIdStrategy sees this request and may attach a parent context.
    const contextId = ContextIdFactory.getByRequest(request);
    this.moduleRef.registerRequestByContextId(request, contextId);
    const instance = await this.moduleRef.resolve<unknown, object>(provider.token, contextId, { strict: false });
    return this.pipeline(instance, callback, methodName, contextId, provider.id)(input, exchange);
  }

  /**
   * The function Nest's pipeline calls: a stand-in for the method carrying a copy of its metadata,
   * with our filter appended (a guard that asks for input raises the signal outside every
   * interceptor: handler-level filters are consulted first, so ours hands it on before an
   * application filter sees it) and, where application interceptors may apply, our interceptor as
   * the innermost one (so they see a result, never the signal). The user's own metadata is never
   * written to.
   */
  private callbackFor(instance: object, method: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
    const callback = function (this: unknown, ...args: unknown[]): unknown {
      return method.apply(this, args);
    };
    Object.defineProperty(callback, 'name', { value: method.name });
    for (const key of Reflect.getMetadataKeys(method))
      Reflect.defineMetadata(key, Reflect.getMetadata(key, method), callback);
    const filters: unknown[] = Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, method) ?? [];
    Reflect.defineMetadata(EXCEPTION_FILTERS_METADATA, [...filters, INPUT_REQUIRED_FILTER], callback);
    if (this.applicationInterceptorsMayApply(instance, method)) {
      const interceptors: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, method) ?? [];
      Reflect.defineMetadata(INTERCEPTORS_METADATA, [...interceptors, INPUT_REQUIRED_INTERCEPTOR], callback);
    }
    return callback;
  }

  /**
   * Our interceptor exists so that the application's interceptors see a result, never the control
   * signal. With none on the handler, its class or the application, nobody can see it, and the
   * call runner seals the round itself: leaving the interceptor out then saves an rxjs pipeline
   * (about a third of a plain tools/call).
   */
  private applicationInterceptorsMayApply(instance: object, method: object): boolean {
    const declared = (target: object) =>
      ((Reflect.getMetadata(INTERCEPTORS_METADATA, target) ?? []) as unknown[]).length > 0;
    if (declared(method) || declared(instance.constructor)) return true;
    return this.config.getGlobalInterceptors().length > 0 || this.config.getGlobalRequestInterceptors().length > 0;
  }
}

const exceptionsHandler = new ExternalExceptionFilter();

/**
 * What Nest's pipeline does when nothing is bound (see `nothingBound`), without its layers: the
 * method with the call's arguments, an Observable result resolved to its last value, and on
 * failure our filter's pass-through of the input-required signal or else Nest's own external
 * exception handler (which logs an unexpected error as for any external context, then rethrows).
 */
function callDirectly(
  instance: object,
  method: (...args: unknown[]) => unknown,
  input: unknown,
  exchange: McpExchange,
): MaybePromise<unknown> {
  let result: unknown;
  try {
    result = method.call(instance, input, exchange);
  } catch (error) {
    return handlerFailed(error);
  }
  // A synchronous method's value is used as it is: no promise is made for it.
  if (isPromiseLike(result)) return Promise.resolve(result).then(lastValueOf, handlerFailed);
  return lastValueOf(result);
}

/** An Observable's last value (its failure handed to {@link handlerFailed}); any other value as it is. */
function lastValueOf(value: unknown): unknown {
  return isObservable(value) ? lastValueFrom(value).catch(handlerFailed) : value;
}

function handlerFailed(error: unknown): unknown {
  if (error instanceof InputRequiredException) throw error;
  return exceptionsHandler.catch(error, undefined as never);
}
