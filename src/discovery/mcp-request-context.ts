import type { IncomingHttpHeaders } from 'node:http';
import type { McpExchange } from '../protocol/mcp-exchange.js';

/**
 * What `@Inject(REQUEST)` gives a request-scoped or durable provider whose tool, prompt or resource
 * is being called, and what a `ContextIdStrategy` receives: the call's exchange, and the HTTP
 * headers (empty over stdio) so strategies that key tenants on a header work unchanged.
 *
 * @publicApi
 */
export interface McpRequestContext {
  readonly exchange: McpExchange;
  readonly headers: IncomingHttpHeaders;
}
