import type { McpExchange } from '../protocol/mcp-exchange.js';

/** A provider method wrapped in the application's guards, interceptors, pipes and filters. */
export interface McpHandler {
  /** The provider class and method name, for metadata lookups (scopes, access policies). */
  readonly handlerClass: Function;
  readonly handlerName: string;
  /** The handler's value, once Nest's pipeline (and the method) settled. */
  invoke(input: unknown, exchange: McpExchange): Promise<unknown>;
}
