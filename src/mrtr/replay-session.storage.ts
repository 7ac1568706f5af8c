import { AsyncLocalStorage } from 'node:async_hooks';
import type { ReplaySession } from './replay-session.js';

/**
 * The replay session of the MCP call whose handler is running. Async context rather than a
 * REQUEST-scoped provider, so `ElicitationContext` stays a singleton on the hot path.
 */
export const replaySessionStorage = new AsyncLocalStorage<ReplaySession>();
