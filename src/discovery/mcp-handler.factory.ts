import {
  Injectable,
  type InjectionToken,
  IntrinsicException,
  Logger,
  UseFilters,
  UseInterceptors,
} from '@nestjs/common';
import { ApplicationConfig, type ContextId, ContextIdFactory, ExternalContextCreator, ModuleRef } from '@nestjs/core';
import { isObservable, lastValueFrom, tap } from 'rxjs';
import { isInputRequired } from '../mrtr/exceptions/input-required.exception.js';
import { mcpCallScope } from '../mrtr/mcp-call-scope.js';
import { ROUTE_ARGS_METADATA } from '../decorators/mcp-metadata.constants.js';
import { INPUT_REQUIRED_FILTER } from '../mrtr/input-required.filter.js';
import { INPUT_REQUIRED_INTERCEPTOR } from '../mrtr/input-required.interceptor.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { escapeStacksForLog } from '../telemetry/log-stack.js';
import type { McpHandler } from './mcp-handler.js';
import { McpParamsFactory } from './mcp-params.factory.js';
import type { McpRequestContext } from './mcp-request-context.js';
import { declaresEnhancers, hasGlobalEnhancers, mayBeIntercepted } from './nest-enhancers.js';

/** The ExecutionContext type our handlers run under: `context.getType() === 'mcp'`. */
export const MCP_CONTEXT_TYPE = 'mcp';

const ENHANCERS = { guards: true, interceptors: true, filters: true } as const;

type Method = (...args: unknown[]) => unknown;

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
 *
 * A kept speed-up (bench/RESULTS.md, "Issue 24"): a singleton's method that declares no enhancer
 * (see `declaresEnhancers`) is called directly when the application has no global one either
 * (decided when the handler is created, as Nest builds its pipeline then), with what the pipeline
 * would do around it: an Observable resolved, the signal sealed
 * as our interceptor does, any other error logged as Nest's external exception handler logs it.
 */
@Injectable()
export class McpHandlerFactory {
  private readonly paramsFactory = new McpParamsFactory();

  constructor(
    private readonly externalContextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly config: ApplicationConfig,
  ) {}

  create(instance: object, methodName: string, contextual?: ContextualProvider): McpHandler {
    const method = (instance as Record<string, unknown>)[methodName] as Method;
    const callback = callbackFor(instance, methodName, method, mayBeIntercepted(instance, method, this.config));
    const handler = { handlerClass: instance.constructor, handlerName: methodName };
    if (contextual) {
      return {
        ...handler,
        invoke: (input, exchange) => this.invokeInContext(contextual, callback, methodName, input, exchange),
      };
    }
    // Decided from what the pipeline is built from, when it is built: both see the same enhancers.
    if (declaresEnhancers(instance, method, methodName) || hasGlobalEnhancers(this.config)) {
      return { ...handler, invoke: this.pipeline(instance, callback, methodName) };
    }
    return { ...handler, invoke: directCall(instance, method) };
  }

  /** Nest's enhancer pipeline around `callback`, for one instance (and, for a contextual one, its context). */
  private pipeline(
    instance: object,
    callback: Method,
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
    callback: Method,
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
}

/**
 * The function Nest's pipeline calls: a stand-in for the method carrying a copy of its metadata
 * (so the user's own metadata is never written to), plus what `@UseFilters` and
 * `@UseInterceptors` on the method would add for our signal:
 * - our filter, consulted before every other one (Nest asks handler-level filters first, and the
 *   last declared first): a guard that asks for input raises the signal outside every interceptor,
 *   and the filter hands it on before an application filter sees it;
 * - our interceptor, the innermost one (method-level interceptors run inside global and class
 *   ones, in declaration order), when an interceptor of the application may wrap the method: it
 *   turns the signal into the sealed round, so those see a result, never the signal.
 *
 * What the method throws (at once, by a rejected promise or an erroring Observable) has its stack
 * made safe for a log line first (see {@link escapeForLog}): Nest's exception handler logs it.
 */
function callbackFor(instance: object, methodName: string, method: Method, intercepted: boolean): Method {
  const callback = function (this: unknown, ...args: unknown[]): unknown {
    let value: unknown;
    try {
      value = method.apply(this, args);
    } catch (error) {
      escapeForLog(error);
      throw error;
    }
    if (value instanceof Promise) {
      return value.catch((error: unknown) => {
        escapeForLog(error);
        throw error;
      });
    }
    return isObservable(value) ? value.pipe(tap({ error: escapeForLog })) : value;
  };
  Object.defineProperty(callback, 'name', { value: method.name });
  for (const key of Reflect.getMetadataKeys(method)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), callback);
  }
  const descriptor: TypedPropertyDescriptor<Method> = { value: callback };
  UseFilters(INPUT_REQUIRED_FILTER)(instance, methodName, descriptor);
  // Without an interceptor of the application nobody could see the signal, and the replay engine
  // seals the round itself: ours would only add an rxjs pipeline per call (kept, measured:
  // bench/RESULTS.md, "Issue 24").
  if (intercepted) UseInterceptors(INPUT_REQUIRED_INTERCEPTOR)(instance, methodName, descriptor);
  return callback;
}

const exceptionsLogger = new Logger('ExceptionsHandler');

/** Whether Nest's external exception handler logs `error` (when no filter of the application takes it). */
function loggedByNest(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof IntrinsicException) && !isInputRequired(error);
}

/**
 * A handler's error that Nest logs as an ERROR, with its stack, gets that stack escaped first
 * (`escapeStacksForLog`): a tool's `new Error(\`… ${input}\`)` with CR or LF in the input must not
 * forge a log line of its own. The message, which the client is answered, stays as it was.
 */
function escapeForLog(error: unknown): void {
  if (loggedByNest(error)) escapeStacksForLog(error);
}

/**
 * What Nest's pipeline does around a method when nothing is bound, without its layers: the method
 * with the call's arguments, an Observable resolved to its last value; the signal turned into the
 * sealed round (as our interceptor does), and any other error logged once under
 * `ExceptionsHandler` (as Nest's external exception handler does) and handed on. One function
 * between the caller and the method.
 */
function directCall(instance: object, method: Method): McpHandler['invoke'] {
  return async function callDirectly(input: unknown, exchange: McpExchange): Promise<unknown> {
    try {
      const value = await method.call(instance, input, exchange);
      return isObservable(value) ? await lastValueFrom(value) : value;
    } catch (error) {
      const scope = mcpCallScope.getStore();
      if (isInputRequired(error) && scope) return scope.seal(error);
      if (loggedByNest(error)) {
        escapeStacksForLog(error);
        exceptionsLogger.error(error);
      }
      throw error;
    }
  };
}
