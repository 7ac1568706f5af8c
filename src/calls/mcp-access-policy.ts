import type { McpExchange } from '../protocol/mcp-exchange.js';

/** What a policy is asked about: a registered tool, prompt or resource and its handler. */
export interface McpAccessTarget {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly name: string;
  /** The provider class and method behind it, for reading decorator metadata. */
  readonly handlerClass: Function;
  readonly handlerName: string;
}

/**
 * Decides which tools, prompts and resources a caller may see and use. Hidden entries are left out
 * of list results; calling one throws whatever `assertAllowed` throws (e.g. a 403 challenge).
 * The core allows everything; `@mocapi/nestjs/oauth2` enforces `@McpScopes`.
 */
export abstract class McpAccessPolicy {
  abstract isVisible(exchange: McpExchange, target: McpAccessTarget): boolean;
  abstract assertAllowed(exchange: McpExchange, target: McpAccessTarget): void;
}
