import type { INestApplication, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { McpClock } from '../../src/core/mcp-clock.js';
import type { AdapterKind, RunningApp } from '../support/start-app.js';

/** A clock the test moves by hand; requestState TTLs are measured against it. */
export class ManualClock extends McpClock {
  constructor(private current = Date.UTC(2026, 6, 28, 12, 0, 0)) {
    super();
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/** Keeps what the application logged at warn level, to pin documented warnings. */
export class CapturingLogger implements LoggerService {
  readonly warnings: string[] = [];
  readonly errors: string[] = [];

  log(): void {}
  debug(): void {}
  verbose(): void {}
  fatal(): void {}
  warn(message: unknown, ...rest: unknown[]): void {
    this.warnings.push(`${String(rest.at(-1) ?? '')}: ${String(message)}`);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.errors.push(`${String(rest.at(-1) ?? '')}: ${String(message)}`);
  }
}

export interface MrtrAppOptions {
  /** Replaces the McpClock provider (Test.createTestingModule(...).overrideProvider(McpClock)). */
  clock?: McpClock;
  logger?: LoggerService;
}

/**
 * Starts a real Nest application on 127.0.0.1 (ephemeral port). With a clock, the app is built
 * from a testing module whose McpClock is overridden; otherwise by NestFactory, as in production.
 */
export async function startMrtrApp(
  module: unknown,
  adapter: AdapterKind,
  options: MrtrAppOptions = {},
): Promise<RunningApp> {
  const httpAdapter = adapter === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  const logger = options.logger ?? false;
  let app: INestApplication;
  if (options.clock) {
    const moduleRef = await Test.createTestingModule({ imports: [module as never] })
      .overrideProvider(McpClock)
      .useValue(options.clock)
      .compile();
    app = moduleRef.createNestApplication(httpAdapter, { logger });
  } else {
    app = await NestFactory.create(module as never, httpAdapter, { logger, abortOnError: false });
  }
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}/mcp`, close: () => app.close() };
}
