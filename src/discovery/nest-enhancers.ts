import {
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type NestInterceptor,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
import { ROUTE_ARGS_METADATA } from '../decorators/mcp-metadata.constants.js';

/**
 * The metadata key a method decorator of `@nestjs/common` writes, learnt by applying it to a probe:
 * Nest exports the decorators but not their keys, and this reads what the decorator itself wrote.
 */
function keyWrittenBy(decorator: MethodDecorator): string {
  const probe = function probe(): void {};
  decorator({}, 'probe', { value: probe });
  const [key] = Reflect.getMetadataKeys(probe) as string[];
  if (key === undefined) throw new Error('A Nest enhancer decorator wrote no metadata: @mocapi/nestjs needs an update');
  return key;
}

class ProbeGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}
class ProbeInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler): ReturnType<CallHandler['handle']> {
    return next.handle();
  }
}
class ProbeFilter implements ExceptionFilter {
  catch(): void {}
}

const INTERCEPTORS_KEY = keyWrittenBy(UseInterceptors(ProbeInterceptor));
const ENHANCER_KEYS = [keyWrittenBy(UseGuards(ProbeGuard)), INTERCEPTORS_KEY, keyWrittenBy(UseFilters(ProbeFilter))];

/**
 * Whether an interceptor of the application may wrap the method: one on the method or its class, or
 * a global one. Our own interceptor exists only so that those see a result instead of the signal.
 */
export function mayBeIntercepted(instance: object, method: object, config: ApplicationConfig): boolean {
  return (
    declared(INTERCEPTORS_KEY, method) ||
    declared(INTERCEPTORS_KEY, instance.constructor) ||
    config.getGlobalInterceptors().length > 0 ||
    config.getGlobalRequestInterceptors().length > 0
  );
}

/**
 * Whether the method or its class declares a guard, an interceptor, an exception filter or a
 * parameter decorator (without one, Nest applies no pipe either). Read once per handler: decorators
 * do not change after bootstrap.
 */
export function declaresEnhancers(instance: object, method: object, methodName: string): boolean {
  for (const key of ENHANCER_KEYS) {
    if (declared(key, method) || declared(key, instance.constructor)) return true;
  }
  const params: unknown = Reflect.getMetadata(ROUTE_ARGS_METADATA, instance.constructor, methodName);
  return params !== undefined && Object.keys(params as object).length > 0;
}

function declared(key: string, target: object): boolean {
  return ((Reflect.getMetadata(key, target) ?? []) as unknown[]).length > 0;
}

/**
 * The global enhancers of the application that apply to an MCP handler, as `ApplicationConfig`
 * lists them. The lists Nest keeps that do not apply here are named in nest-enhancers.spec.ts,
 * which fails when a Nest release adds a kind this does not know. Read when a handler is created,
 * as Nest reads them when it builds a pipeline.
 */
export function hasGlobalEnhancers(config: ApplicationConfig): boolean {
  return (
    config.getGlobalGuards().length > 0 ||
    config.getGlobalRequestGuards().length > 0 ||
    config.getGlobalInterceptors().length > 0 ||
    config.getGlobalRequestInterceptors().length > 0 ||
    config.getGlobalFilters().length > 0 ||
    config.getGlobalRequestFilters().length > 0
  );
}
