import type { Readable, Writable } from 'node:stream';
import {
  type DynamicModule,
  type INestApplicationContext,
  Logger,
  type LoggerService,
  type LogLevel,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { redirectConsoleToStderr } from './console-redirect.js';
import type { McpStdioConnection } from './mcp-stdio-connection.js';
import { McpStdioTransport } from './mcp-stdio-transport.js';
import { McpStderrLogger } from './stderr-logger.js';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Options of {@link bootstrapStdio}.
 *
 * @publicApi
 */
export interface BootstrapStdioOptions {
  /**
   * The Nest logger. Default: {@link McpStderrLogger} (every level on stderr). A list of levels
   * keeps that logger with only those levels; `false` silences Nest. A logger of your own must not
   * write to stdout.
   */
  logger?: LoggerService | LogLevel[] | false;
  /** Default `process.stdin`. */
  input?: Readable;
  /** Default `process.stdout`. */
  output?: Writable;
  /**
   * Send `console.log`/`info`/`debug`/... to stderr while the server runs, so stray prints cannot
   * corrupt the protocol. Default: true when the output is `process.stdout`.
   */
  redirectConsole?: boolean;
  /** Close gracefully on SIGTERM and SIGINT, then re-raise the signal. Default true. */
  handleSignals?: boolean;
  /**
   * On {@link McpStdioServer.close} (and signals): how long calls in flight, whose signals are
   * aborted, may take to answer before the application is closed anyway. Default 5000 ms.
   */
  shutdownTimeoutMs?: number;
  /** The `path` of the server to serve, when the application runs several. Default: the one at `/mcp`. */
  server?: string;
}

/**
 * A running stdio server.
 *
 * @publicApi
 */
export interface McpStdioServer {
  readonly app: INestApplicationContext;
  readonly connection: McpStdioConnection;
  /** Settles once the application is closed: after stdin ended and every call was answered, or after {@link close}. */
  readonly closed: Promise<void>;
  /** Stops reading, aborts calls in flight, waits for them (bounded by `shutdownTimeoutMs`), then closes the application. */
  close(): Promise<void>;
}

/**
 * Runs a module as an MCP server over stdio: a Nest application context (no HTTP server) whose
 * `McpModule` tools answer newline-delimited JSON-RPC on stdin/stdout. Logs go to stderr only.
 * The application closes when stdin ends (once every call is answered) and on SIGTERM/SIGINT.
 *
 * ```ts
 * // main.ts — with McpModule.forRoot({ name: 'orders', version: '1.0.0', http: false }) in AppModule
 * await bootstrapStdio(AppModule);
 * ```
 *
 * @publicApi
 */
export async function bootstrapStdio(
  module: Type<unknown> | DynamicModule,
  options: BootstrapStdioOptions = {},
): Promise<McpStdioServer> {
  const output = options.output ?? process.stdout;
  const restoreConsole =
    (options.redirectConsole ?? output === process.stdout) ? redirectConsoleToStderr() : () => undefined;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 5000;

  let app: INestApplicationContext;
  try {
    app = await NestFactory.createApplicationContext(module, {
      logger: resolveLogger(options.logger),
      abortOnError: false,
    });
  } catch (error) {
    restoreConsole();
    throw error;
  }

  let transport: McpStdioTransport;
  try {
    transport = McpStdioTransport.fromContext(app, options.server);
  } catch (error) {
    await app.close();
    restoreConsole();
    throw new Error(
      options.server !== undefined
        ? `bootstrapStdio: ${(error as Error).message}`
        : 'bootstrapStdio: no McpModule found; import McpModule.forRoot({ name, version, http: false }) in the module you pass',
      {
        cause: error,
      },
    );
  }
  const connection = transport.listen({ input: options.input, output });
  const logger = new Logger('McpStdio');
  const { name, version } = transport.serverInfo;
  logger.log(`MCP server "${name}" ${version} listening on stdio`);

  const signalHandlers = new Map<NodeJS.Signals, () => void>();
  let shutdown: Promise<void> | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const closeApp = (): Promise<void> =>
    (shutdown ??= (async () => {
      for (const [signal, handler] of signalHandlers) process.off(signal, handler);
      try {
        await app.close();
      } catch (error) {
        logger.error('Closing the application failed', error instanceof Error ? error.stack : String(error));
      } finally {
        restoreConsole();
        markClosed();
      }
    })());

  void connection.closed.then(() => {
    if (!shutdown) logger.log('stdin ended: closing');
    return closeApp();
  });

  const close = async (): Promise<void> => {
    if (!shutdown) {
      const settled = await settleWithin(connection.close(), shutdownTimeoutMs);
      if (!settled)
        logger.warn(`${connection.pending} call(s) still running after ${shutdownTimeoutMs} ms: closing anyway`);
    }
    return closeApp();
  };

  if (options.handleSignals ?? true) {
    for (const signal of SIGNALS) {
      const handler = (): void => {
        logger.log(`${signal} received: closing`);
        void close().finally(() => {
          // Our handlers are gone now: unless the application listens too, the re-raised signal
          // ends the process the default way.
          if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
        });
      };
      signalHandlers.set(signal, handler);
      process.once(signal, handler);
    }
  }

  return { app, connection, closed, close };
}

function resolveLogger(logger: BootstrapStdioOptions['logger']): LoggerService | LogLevel[] | false {
  if (logger === undefined) return new McpStderrLogger();
  if (Array.isArray(logger)) return new McpStderrLogger({ logLevels: logger });
  return logger;
}

/** Resolves true if `promise` settled within `ms`, false otherwise. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
