import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type {
  Resolvable,
  ThrottlerGenerateKeyFunction,
  ThrottlerGetTrackerFunction,
  ThrottlerOptions,
} from '@nestjs/throttler';

// @nestjs/throttler's metadata keys (its THROTTLER_* constants, not exported from its index).
const SKIP = 'THROTTLER:SKIP';
const LIMIT = 'THROTTLER:LIMIT';
const TTL = 'THROTTLER:TTL';
const BLOCK_DURATION = 'THROTTLER:BLOCK_DURATION';
const TRACKER = 'THROTTLER:TRACKER';
const KEY_GENERATOR = 'THROTTLER:KEY_GENERATOR';

/** The numbers one throttler counts a call with. */
export interface ThrottleValues {
  readonly limit: number;
  readonly ttl: number;
  readonly blockDuration: number;
}

/** One throttler as it applies to one handler: decorators merged over the module's options. */
export interface ThrottleStep {
  readonly name: string;
  readonly skipIf?: (context: ExecutionContext) => boolean;
  readonly getTracker: ThrottlerGetTrackerFunction;
  readonly generateKey: ThrottlerGenerateKeyFunction;
  /** Whether the caller's user agent is one the throttler ignores (`ignoreUserAgents`). */
  ignores(userAgent: unknown): boolean;
  /** The limit, ttl and block duration; a promise only when one of them is resolved asynchronously. */
  values(context: ExecutionContext): ThrottleValues | Promise<ThrottleValues>;
}

type Common = Pick<ThrottlerOptions, 'skipIf' | 'ignoreUserAgents' | 'getTracker' | 'generateKey'>;

/**
 * The throttlers that apply to each handler, read from `@Throttle()` / `@SkipThrottle()` (method,
 * then class) once per handler and kept for its later calls. Decorator metadata is written when
 * the class is defined, so it cannot change under a running handler. A limit, ttl or block duration
 * given as a function is still called on every request, as throttler does.
 */
export class ThrottleSteps {
  private readonly byHandler = new WeakMap<object, readonly ThrottleStep[]>();

  constructor(
    private readonly throttlers: readonly ThrottlerOptions[],
    private readonly common: Common,
    private readonly reflector: Reflector,
  ) {}

  of(context: ExecutionContext): readonly ThrottleStep[] {
    const handler = context.getHandler();
    let steps = this.byHandler.get(handler);
    if (steps === undefined) {
      steps = this.build([handler, context.getClass()]);
      this.byHandler.set(handler, steps);
    }
    return steps;
  }

  private build(targets: [object, object]): ThrottleStep[] {
    const steps: ThrottleStep[] = [];
    for (const throttler of this.throttlers) {
      const name = throttler.name ?? 'default';
      const read = <T>(key: string): T | undefined =>
        this.reflector.getAllAndOverride<T | undefined>(key + name, targets as never);
      if (read<boolean>(SKIP)) continue;
      const limit = read<Resolvable<number>>(LIMIT) ?? throttler.limit;
      const ttl = read<Resolvable<number>>(TTL) ?? throttler.ttl;
      const blockDuration = read<Resolvable<number>>(BLOCK_DURATION) ?? throttler.blockDuration;
      const userAgents = throttler.ignoreUserAgents ?? this.common.ignoreUserAgents;
      steps.push({
        name,
        skipIf: throttler.skipIf ?? this.common.skipIf,
        getTracker: (read<ThrottlerGetTrackerFunction>(TRACKER) ??
          throttler.getTracker ??
          this.common.getTracker) as ThrottlerGetTrackerFunction,
        generateKey: (read<ThrottlerGenerateKeyFunction>(KEY_GENERATOR) ??
          throttler.generateKey ??
          this.common.generateKey) as ThrottlerGenerateKeyFunction,
        ignores: Array.isArray(userAgents)
          ? (userAgent) => userAgents.some((pattern) => pattern.test(userAgent as string))
          : () => false,
        values: valuesOf(name, limit, ttl, blockDuration),
      });
    }
    return steps;
  }
}

/** Numbers fixed at bootstrap are checked once; resolvable ones on each call. */
function valuesOf(
  name: string,
  limit: Resolvable<number>,
  ttl: Resolvable<number>,
  blockDuration: Resolvable<number> | undefined,
): ThrottleStep['values'] {
  if (typeof limit !== 'function' && typeof ttl !== 'function' && typeof blockDuration !== 'function') {
    const ttlMs = toNumber(ttl, 'ttl', name);
    const fixed: ThrottleValues = {
      limit: toNumber(limit, 'limit', name),
      ttl: ttlMs,
      blockDuration: toNumber(blockDuration ?? ttlMs, 'blockDuration', name),
    };
    return () => fixed;
  }
  return async (context) => {
    const resolvedLimit = toNumber(await resolve(limit, context), 'limit', name);
    const resolvedTtl = toNumber(await resolve(ttl, context), 'ttl', name);
    const resolvedBlock = toNumber(await resolve(blockDuration ?? resolvedTtl, context), 'blockDuration', name);
    return { limit: resolvedLimit, ttl: resolvedTtl, blockDuration: resolvedBlock };
  };
}

function resolve(value: Resolvable<number>, context: ExecutionContext): number | Promise<number> {
  return typeof value === 'function' ? value(context) : value;
}

/** Throttler accepts numeric strings too (e.g. straight from ConfigService). */
function toNumber(value: unknown, option: string, throttler: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || Number.isNaN(number)) {
    throw new Error(`Invalid "${option}" of the "${throttler}" throttler: a number is needed, got ${String(value)}`);
  }
  return number;
}
