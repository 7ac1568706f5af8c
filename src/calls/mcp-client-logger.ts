import { Injectable } from '@nestjs/common';
import type { LoggingLevel } from '../protocol/wire-types.js';
import { mcpCallScope } from '../mrtr/mcp-call-scope.js';

const SEVERITY: Readonly<Record<LoggingLevel, number>> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/** What a call that did not have to wait returns: one settled promise, not one per message. */
const DONE: Promise<void> = Promise.resolve();

/** Per call: the drain being waited for and the wait handed out for it (one abort listener per drain). */
const waits = new WeakMap<AbortSignal, { readonly drain: Promise<void>; readonly wait: Promise<void> }>();

/**
 * Settles when the client took what was written, or when the call is stopped: a call cancelled,
 * timed out or shut down while its client does not read must not stay parked here (holding its
 * session busy) until the client reads or leaves.
 */
function drainedOrStopped(drain: Promise<void>, signal: AbortSignal): Promise<void> {
  const known = waits.get(signal);
  if (known?.drain === drain) return known.wait;
  const wait = new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void drain.then(done);
  });
  waits.set(signal, { drain, wait });
  return wait;
}

/**
 * Sends log messages to the client of the MCP call in progress (`notifications/message`,
 * deprecated in 2026-07-28). Only requests whose `_meta` sets a log level receive them, and only at
 * or above that level; otherwise calls are no-ops.
 *
 * Each call returns a promise that is settled at once, or, while the client is not reading its
 * stream as fast as messages are written, settles once it caught up (or went away, or the call was
 * stopped: cancelled, timed out, shut down). Awaiting it lets a chatty handler go at its client's
 * pace; a handler that does not await and keeps writing to a client more than
 * `limits.maxStreamBacklogBytes` behind has its call aborted (`McpCallAbortedError`, reason
 * `client-behind`). The promise never rejects.
 *
 * @publicApi
 */
@Injectable()
export class McpClientLogger {
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const exchange = mcpCallScope.getStore()?.exchange;
    if (!exchange?.logLevel || SEVERITY[level] < SEVERITY[exchange.logLevel] || exchange.signal.aborted) return DONE;
    const sent = exchange.notify({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level, data, ...(logger && { logger }) },
    });
    return sent ? drainedOrStopped(sent, exchange.signal) : DONE;
  }

  debug(data: unknown, logger?: string): Promise<void> {
    return this.log('debug', data, logger);
  }

  info(data: unknown, logger?: string): Promise<void> {
    return this.log('info', data, logger);
  }

  warning(data: unknown, logger?: string): Promise<void> {
    return this.log('warning', data, logger);
  }

  error(data: unknown, logger?: string): Promise<void> {
    return this.log('error', data, logger);
  }
}
