import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';

export type AdapterKind = 'express' | 'fastify';
export const ADAPTERS: readonly AdapterKind[] = ['express', 'fastify'];

export interface RunningApp {
  readonly app: INestApplication;
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a real Nest application on 127.0.0.1 (ephemeral port) with the given HTTP adapter. */
export async function startApp(module: unknown, adapter: AdapterKind, path = '/mcp'): Promise<RunningApp> {
  const app = await NestFactory.create(
    module as never,
    adapter === 'express' ? new ExpressAdapter() : new FastifyAdapter(),
    {
      logger: false,
    },
  );
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}${path}`, close: () => app.close() };
}
