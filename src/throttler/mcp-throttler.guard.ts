import { type ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { McpPrincipalSource } from '../core/mcp-principal.source.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { callerOf } from '../task-store/task-caller.js';
import { McpRateLimitedException } from './mcp-rate-limited.exception.js';
import { type ThrottleStep, ThrottleSteps, type ThrottleValues } from './throttle-steps.js';

/** What the guard hands @nestjs/throttler as "the request" of an MCP call. */
type McpThrottledRequest = {
  readonly headers: Readonly<Record<string, unknown>>;
  readonly exchange: McpExchange;
};

/**
 * @nestjs/throttler's guard for MCP handlers (tools/call, prompts/get, resources/read): every
 * other execution context (the application's HTTP routes, microservices) passes untouched.
 *
 * The tracker is the principal (`McpPrincipalSource`), else the client address (`stdio` on
 * stdio); counters are kept per MCP method and tool / prompt name or resource URI. `@Throttle()`
 * and `@SkipThrottle()` on the handler method or its class apply as on HTTP routes, as do the
 * module's `skipIf`, `ignoreUserAgents`, `getTracker`, `generateKey` and storage. An exceeded limit
 * throws {@link McpRateLimitedException}.
 *
 * Unlike throttler's own `canActivate`, which reads every decorator through the `Reflector` and
 * awaits each value on every request, this one reads a handler's decorators once (its first call)
 * and awaits only what is really asynchronous: the storage, and resolvable limits or a tracker
 * that the application made asynchronous.
 *
 * @publicApi
 */
@Injectable()
export class McpThrottlerGuard extends ThrottlerGuard {
  private steps?: ThrottleSteps;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storageService: ThrottlerStorage,
    reflector: Reflector,
    @Optional() private readonly principals?: McpPrincipalSource,
  ) {
    super(options, storageService, reflector);
  }

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    // Our tracker answers synchronously; throttler's default wraps it in a promise. Keep whatever
    // the application configured (options.getTracker) or a subclass overrode.
    const configured = !Array.isArray(this.options) && this.options.getTracker !== undefined;
    if (!configured && this.getTracker === McpThrottlerGuard.prototype.getTracker) {
      this.commonOptions.getTracker = (req) => this.trackerOf(req as McpThrottledRequest);
    }
    this.steps = new ThrottleSteps(this.throttlers, this.commonOptions, this.reflector);
  }

  override canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() !== 'mcp') return Promise.resolve(true);
    if (this.shouldSkip !== McpThrottlerGuard.prototype.shouldSkip) {
      return this.shouldSkip(context).then((skip) => skip || this.count(context));
    }
    return this.count(context);
  }

  /** Counts the call against each throttler that applies, in throttler's order; throws past a limit. */
  private count(context: ExecutionContext): Promise<boolean> {
    const steps = (this.steps ??= new ThrottleSteps(this.throttlers, this.commonOptions, this.reflector));
    return this.countFrom(context, steps.of(context), 0, undefined);
  }

  private countFrom(
    context: ExecutionContext,
    steps: readonly ThrottleStep[],
    from: number,
    req: McpThrottledRequest | undefined,
  ): Promise<boolean> {
    for (let i = from; i < steps.length; i++) {
      const step = steps[i]!;
      if (step.skipIf?.(context)) continue;
      req ??= this.getRequestResponse(context).req as McpThrottledRequest;
      if (step.ignores(req.headers['user-agent'])) continue;
      const hit = this.hit(context, step, req);
      if (i + 1 === steps.length) return hit;
      const request = req;
      return hit.then(() => this.countFrom(context, steps, i + 1, request));
    }
    return Promise.resolve(true);
  }

  /** Counts the call against one throttler: resolves to true, or rejects past the limit. */
  private hit(context: ExecutionContext, step: ThrottleStep, req: McpThrottledRequest): Promise<boolean> {
    const values = step.values(context);
    if (values instanceof Promise) return values.then((resolved) => this.track(context, step, resolved, req));
    return this.track(context, step, values, req);
  }

  private track(
    context: ExecutionContext,
    step: ThrottleStep,
    values: ThrottleValues,
    req: McpThrottledRequest,
  ): Promise<boolean> {
    const tracker = step.getTracker(req, context);
    if (typeof tracker !== 'string') return tracker.then((resolved) => this.increment(context, step, values, resolved));
    return this.increment(context, step, values, tracker);
  }

  private increment(
    context: ExecutionContext,
    step: ThrottleStep,
    values: ThrottleValues,
    tracker: string,
  ): Promise<boolean> {
    const { limit, ttl, blockDuration } = values;
    const key = step.generateKey(context, tracker, step.name);
    return this.storageService.increment(key, ttl, limit, blockDuration, step.name).then((record) => {
      if (!record.isBlocked) return true;
      return this.throwThrottlingException(context, { ...record, limit, ttl, key, tracker }).then(() => false);
    });
  }

  protected override getRequestResponse(context: ExecutionContext): {
    req: Record<string, unknown>;
    res: Record<string, unknown>;
  } {
    const exchange = context.getArgByIndex<McpExchange>(1);
    const transport = exchange.transport;
    const req: McpThrottledRequest = { headers: transport.kind === 'http' ? transport.request.headers : {}, exchange };
    // No response object: an MCP success carries no rate-limit headers, so setting them is a no-op.
    return { req, res: {} };
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    return Promise.resolve(this.trackerOf(req as unknown as McpThrottledRequest));
  }

  /** The principal, else the client address (`stdio` on stdio): the caller task quotas count too. */
  private trackerOf(req: McpThrottledRequest): string {
    const exchange = req.exchange;
    return callerOf(exchange, this.principals?.resolve(exchange) ?? null);
  }

  protected override generateKey(context: ExecutionContext, tracker: string, throttlerName: string): string {
    const { method, params } = context.getArgByIndex<McpExchange>(1);
    // A task method counts per task whatever else params carry: were a `name` added to tasks/get
    // its target, a client would get a fresh counter per request by changing it.
    const target = method.startsWith('tasks/') ? params['taskId'] : (params['name'] ?? params['uri']);
    return `mcp:${throttlerName}:${method}:${typeof target === 'string' ? target : ''}:${tracker}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    // timeToBlockExpire is in whole seconds (the storage's own unit for Retry-After).
    throw new McpRateLimitedException(Math.max(0, detail.timeToBlockExpire) * 1000);
  }
}
