import { Injectable } from '@nestjs/common';
import { ExternalContextCreator } from '@nestjs/core';
import { ROUTE_ARGS_METADATA } from '../decorators/mcp-metadata.constants.js';
import { INPUT_REQUIRED_FILTER } from '../mrtr/input-required.filter.js';
import { INPUT_REQUIRED_INTERCEPTOR } from '../mrtr/input-required.interceptor.js';
import type { McpHandler } from './mcp-handler.js';
import { McpParamsFactory } from './mcp-params.factory.js';

/** The ExecutionContext type our handlers run under: `context.getType() === 'mcp'`. */
export const MCP_CONTEXT_TYPE = 'mcp';

const INTERCEPTORS_METADATA = '__interceptors__';
const EXCEPTION_FILTERS_METADATA = '__exceptionFilters__';

/**
 * Wraps a provider method so it runs through Nest's enhancer pipeline exactly as a route does
 * (global and local guards, interceptors, pipes, filters), built once per handler at bootstrap.
 */
@Injectable()
export class McpHandlerFactory {
  private readonly paramsFactory = new McpParamsFactory();

  constructor(private readonly externalContextCreator: ExternalContextCreator) {}

  create(instance: object, methodName: string): McpHandler {
    const method = (instance as Record<string, unknown>)[methodName] as (...args: unknown[]) => unknown;
    if (this.applicationInterceptorsMayApply(instance, method)) appendMetadata(INTERCEPTORS_METADATA, method, INPUT_REQUIRED_INTERCEPTOR);
    appendMetadata(EXCEPTION_FILTERS_METADATA, method, INPUT_REQUIRED_FILTER);
    const run = this.externalContextCreator.create(
      instance,
      method,
      methodName,
      ROUTE_ARGS_METADATA,
      this.paramsFactory,
      undefined,
      undefined,
      { guards: true, interceptors: true, filters: true },
      MCP_CONTEXT_TYPE,
    );
    return {
      handlerClass: instance.constructor,
      handlerName: methodName,
      invoke: (input, exchange) => run(input, exchange),
    };
  }

  /**
   * Our interceptor exists so that the application's interceptors see a result, never the control
   * signal. With none on the handler, its class or the application, nobody can see it, and the
   * call runner seals the round itself: leaving the interceptor out then saves an rxjs pipeline
   * (about a third of a plain tools/call). When Nest's internals do not tell, it stays.
   */
  private applicationInterceptorsMayApply(instance: object, method: object): boolean {
    const own = (target: object) =>
      ((Reflect.getMetadata(INTERCEPTORS_METADATA, target) ?? []) as unknown[]).some((i) => i !== INPUT_REQUIRED_INTERCEPTOR);
    if (own(method) || own(instance.constructor)) return true;
    const config = (this.externalContextCreator as unknown as { interceptorsContextCreator?: { config?: GlobalInterceptorSource } })
      .interceptorsContextCreator?.config;
    if (typeof config?.getGlobalInterceptors !== 'function' || typeof config.getGlobalRequestInterceptors !== 'function') return true;
    return config.getGlobalInterceptors().length > 0 || config.getGlobalRequestInterceptors().length > 0;
  }
}

/** The part of Nest's ApplicationConfig that lists global interceptors (useGlobalInterceptors, APP_INTERCEPTOR). */
interface GlobalInterceptorSource {
  getGlobalInterceptors(): unknown[];
  getGlobalRequestInterceptors(): unknown[];
}

/**
 * Method-level interceptors are the innermost ones, and the last of them is closest to the handler:
 * appended there, ours sees the control signal before any interceptor of the application can
 * swallow it; method-level filters are consulted before class-level and global ones. Instances
 * (not classes) need no registration as injectables of the user's module.
 */
function appendMetadata(key: string, method: object, enhancer: object): void {
  const existing: unknown[] = Reflect.getMetadata(key, method) ?? [];
  if (!existing.includes(enhancer)) Reflect.defineMetadata(key, [...existing, enhancer], method);
}
