import { MCP_SCOPES_METADATA } from './mcp-oauth2.constants.js';
import { scopeProblem } from './mcp-oauth2.options.js';

/**
 * Requires OAuth scopes for an MCP tool, prompt or resource handler (on a method), or for every
 * handler of a provider (on the class). All listed scopes are needed; stacked decorators and
 * class-plus-method add up. A caller without them does not see the entry in list results and
 * gets 403 `insufficient_scope` when calling it. Enforced by `McpOAuth2Module`.
 *
 * @example
 * ```ts
 * @McpTool({ description: 'Place an order' })
 * @McpScopes('orders:write')
 * placeOrder(@McpArgs() order: OrderDto) { … }
 * ```
 * @publicApi
 */
export function McpScopes(...scopes: string[]): ClassDecorator & MethodDecorator {
  if (scopes.length === 0) throw new Error('@McpScopes(): name at least one scope');
  for (const scope of scopes) {
    const problem = scopeProblem(scope);
    if (problem) throw new Error(`@McpScopes(): ${problem}`);
  }
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    const holder = descriptor === undefined ? target : (descriptor.value as object);
    const existing = (Reflect.getOwnMetadata(MCP_SCOPES_METADATA, holder) as string[] | undefined) ?? [];
    Reflect.defineMetadata(MCP_SCOPES_METADATA, [...new Set([...existing, ...scopes])], holder);
  };
}

/** The scopes a handler needs through `@McpScopes`: its class's plus its method's. */
export function getMcpScopes(handlerClass: Function, handlerName: string): string[] {
  const method = (handlerClass.prototype as Record<string, unknown> | undefined)?.[handlerName];
  const onClass = (Reflect.getMetadata(MCP_SCOPES_METADATA, handlerClass) as string[] | undefined) ?? [];
  const onMethod =
    typeof method === 'function'
      ? ((Reflect.getMetadata(MCP_SCOPES_METADATA, method) as string[] | undefined) ?? [])
      : [];
  return [...new Set([...onClass, ...onMethod])];
}
