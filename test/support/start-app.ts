import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { INestApplication, LoggerService, LogLevel, NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';

export type AdapterKind = 'express' | 'fastify';
export const ADAPTERS: readonly AdapterKind[] = ['express', 'fastify'];

export interface RunningApp {
  readonly app: INestApplication;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** The MCP endpoint: the origin and the path. */
  readonly url: string;
  close(): Promise<void>;
}

/** A provider the application gets in place of its own (built through a testing module then). */
export interface ProviderOverride {
  readonly provide: unknown;
  readonly useValue: unknown;
}

export interface StartOptions<A extends INestApplication = INestApplication> {
  /**
   * The port to listen on (default: one the OS picks). Give one (from freePort) when the server's
   * canonical URI, e.g. a token audience, must be known before the application is built.
   */
  readonly port?: number;
  /** The MCP endpoint's path (default /mcp). */
  readonly path?: string;
  /** Nest's logger (default: none). */
  readonly logger?: LoggerService | LogLevel[] | false;
  /** Providers replaced before the application starts (Test.createTestingModule(...).overrideProvider). */
  readonly overrides?: readonly ProviderOverride[];
  /** Nest's own body parser (default on). */
  readonly bodyParser?: boolean;
  /** Runs on the application before it listens (middleware, CORS, a body parser limit). */
  readonly configure?: (app: A) => void;
  /** The FastifyAdapter's options (e.g. `trustProxy`); unused on Express. */
  readonly fastify?: ConstructorParameters<typeof FastifyAdapter>[0];
}

/**
 * Starts a real Nest application on 127.0.0.1 with the given HTTP adapter. With overrides, the app
 * is built from a testing module; otherwise by NestFactory, as in production.
 */
export async function startApp<A extends INestApplication = INestApplication>(
  module: unknown,
  adapter: AdapterKind,
  options: StartOptions<A> = {},
): Promise<RunningApp> {
  const httpAdapter = adapter === 'express' ? new ExpressAdapter() : new FastifyAdapter(options.fastify);
  const appOptions: NestApplicationOptions = {
    logger: options.logger ?? false,
    ...(options.bodyParser !== undefined && { bodyParser: options.bodyParser }),
  };
  let app: INestApplication;
  if (options.overrides?.length) {
    let builder = Test.createTestingModule({ imports: [module as never] });
    for (const { provide, useValue } of options.overrides)
      builder = builder.overrideProvider(provide).useValue(useValue);
    app = (await builder.compile()).createNestApplication(httpAdapter, appOptions);
  } else {
    app = await NestFactory.create(module as never, httpAdapter, { ...appOptions, abortOnError: false });
  }
  options.configure?.(app as A);
  await app.listen(options.port ?? 0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const close = async () => {
    // Node's server.close() closes idle keep-alive connections but waits for one that never sent a
    // byte until headersTimeout (about 70 s with the defaults): undici opens such a connection when
    // a client closes while a request of its was being dispatched. Production servers bound this
    // with headersTimeout (docs/transports.md); here such connections are ended with the app.
    const silent = setInterval(() => {
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    }, 100);
    try {
      await app.close();
    } finally {
      clearInterval(silent);
    }
  };
  return { app, origin, url: `${origin}${options.path ?? '/mcp'}`, close };
}
