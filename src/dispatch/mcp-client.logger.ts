import { Injectable } from '@nestjs/common';
import type { LoggingLevel } from '../protocol/wire-types.js';
import { mcpCallScope } from '../mrtr/mcp-call.scope.js';

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

/**
 * Sends log messages to the client of the MCP call in progress (`notifications/message`,
 * deprecated in 2026-07-28). Only requests whose `_meta` sets a log level receive them, and only at
 * or above that level; otherwise calls are no-ops.
 *
 * @publicApi
 */
@Injectable()
export class McpClientLogger {
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const exchange = mcpCallScope.getStore()?.exchange;
    if (!exchange?.logLevel || SEVERITY[level] < SEVERITY[exchange.logLevel] || exchange.signal.aborted) return;
    exchange.notify({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level, data, ...(logger && { logger }) },
    });
  }

  debug(data: unknown, logger?: string): void {
    this.log('debug', data, logger);
  }

  info(data: unknown, logger?: string): void {
    this.log('info', data, logger);
  }

  warning(data: unknown, logger?: string): void {
    this.log('warning', data, logger);
  }

  error(data: unknown, logger?: string): void {
    this.log('error', data, logger);
  }
}
