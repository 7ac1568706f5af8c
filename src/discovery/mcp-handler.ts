import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { MaybePromise } from '../protocol/maybe-promise.js';

/** A provider method wrapped in the application's guards, interceptors, pipes and filters. */
export interface McpHandler {
  /** The provider class and method name, for metadata lookups (scopes, access policies). */
  readonly handlerClass: Function;
  readonly handlerName: string;
  /** The handler's value: synchronous when the method and everything bound to it were. */
  invoke(input: unknown, exchange: McpExchange): MaybePromise<unknown>;
}
