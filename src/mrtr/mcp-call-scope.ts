import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { InputRequiredResult } from '../protocol/wire-types.js';
import type { InputRequiredException } from './exceptions/input-required.exception.js';
import type { ReplaySession } from './replay-session.js';

/**
 * Everything one running MCP call needs to find without being handed it: the exchange (for
 * progress and client logging), its replay session (for `ElicitationContext`), and how to seal an
 * input-required round (for the interceptor). One async context rather than REQUEST-scoped
 * providers, so the helpers stay singletons on the hot path.
 */
export interface McpCallScope {
  readonly exchange: McpExchange;
  readonly session: ReplaySession;
  /** Seals the round the signal asks for (once per call; later calls return the same round). */
  seal(signal: InputRequiredException): InputRequiredResult;
}

/** The scope of the MCP call whose handler is running, if any. */
export const mcpCallScope = new AsyncLocalStorage<McpCallScope>();
