import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger, but every level goes to stderr: on a stdio server stdout belongs to the
 * protocol, and `ConsoleLogger` would print `log`, `warn`, `debug` and `verbose` there. Colors are
 * on only when stderr is a terminal (and `NO_COLOR` is unset), so captured logs stay plain text.
 *
 * @publicApi
 */
export class McpStderrLogger extends ConsoleLogger {
  constructor(options: ConsoleLoggerOptions = {}) {
    super({ colors: process.stderr.isTTY === true && !process.env['NO_COLOR'], ...options });
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
