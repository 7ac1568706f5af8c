import type { McpExchange } from '../protocol/mcp-exchange.js';

/**
 * Counts tasks/get, tasks/update and tasks/cancel against a rate limit before they run. They are
 * the module's own methods, not handlers behind Nest's guards, so a rate limiter that wants them
 * provides this class (`@mocapi/nestjs/throttler` does, with the limit its guard applies to
 * tools/call); without one they are not limited.
 */
export abstract class TaskMethodsLimiter {
  /** Resolves when the call may run; rejects with the limiter's error (e.g. 429) when it may not. */
  abstract check(exchange: McpExchange): Promise<void>;
}
