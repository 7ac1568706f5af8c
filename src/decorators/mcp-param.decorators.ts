import { assignMetadata } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from './mcp-metadata.constants.js';

/** Argument positions our dispatcher passes to every handler: (input, exchange). */
export const enum McpParamType {
  Args = 0,
  Exchange = 1,
}

function mcpParam(type: McpParamType, data?: string): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) return;
    const existing: unknown = Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {};
    // Nest's own helper writes the entry in the shape its pipeline reads (positional form: Nest 11 and 12).
    Reflect.defineMetadata(ROUTE_ARGS_METADATA, assignMetadata(existing, type, index, data), target.constructor, key);
  };
}

/**
 * Injects the validated tool input (or one property of it with `@McpArgs('name')`).
 * Pipes declared on the handler apply to it.
 *
 * @publicApi
 */
export const McpArgs = (property?: string): ParameterDecorator => mcpParam(McpParamType.Args, property);

/**
 * Injects the request's {@link McpExchange}: protocol version, client capabilities, progress
 * token, abort signal, the underlying HTTP request.
 *
 * @publicApi
 */
export const McpCtx = (): ParameterDecorator => mcpParam(McpParamType.Exchange);
