import type { LoggerService } from '@nestjs/common';
import { McpClock } from '../../src/core/mcp-clock.js';
import { startApp, type AdapterKind, type RunningApp } from '../support/start-app.js';

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

/** startApp with the MRTR tests' two knobs: a hand-moved McpClock (overridden), a capturing logger. */
export function startMrtrApp(module: unknown, adapter: AdapterKind, options: MrtrAppOptions = {}): Promise<RunningApp> {
  return startApp(module, adapter, {
    logger: options.logger,
    overrides: options.clock ? [{ provide: McpClock, useValue: options.clock }] : [],
  });
}
