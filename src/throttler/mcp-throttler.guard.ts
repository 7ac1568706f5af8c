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
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { callerOf } from '../task-store/task-caller.js';
import { McpRateLimitedException } from './mcp-rate-limited.exception.js';

/**
 * What the guard hands @nestjs/throttler as "the request" of an MCP call: the headers its
 * `ignoreUserAgents` reads (none on stdio) and the exchange, for a `getTracker` of the application.
 */
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
 * It is `ThrottlerGuard` itself, adapted through the overrides throttler documents for other
 * contexts (`shouldSkip`, `getRequestResponse`, `getTracker`, `generateKey`,
 * `throwThrottlingException`); a subclass that overrides `shouldSkip` keeps other contexts out by
 * returning `super.shouldSkip(context)` when it does not skip.
 *
 * @publicApi
 */
@Injectable()
export class McpThrottlerGuard extends ThrottlerGuard {
  /** @internal Nest builds it. */
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storageService: ThrottlerStorage,
    reflector: Reflector,
    @Optional() private readonly principals?: McpPrincipalSource,
  ) {
    super(options, storageService, reflector);
  }

  /** Only MCP handlers are counted here; the application's own routes are its own guard's business. */
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return context.getType<string>() !== 'mcp';
  }

  protected override getRequestResponse(context: ExecutionContext): {
    req: Record<string, unknown>;
    res: Record<string, unknown>;
  } {
    const exchange = context.getArgByIndex<McpExchange>(1);
    const transport = exchange.transport;
    const req: McpThrottledRequest = { headers: transport.kind === 'http' ? transport.request.headers : {}, exchange };
    // A response without header()/setHeader(), so throttler sets no X-RateLimit-* headers: an MCP
    // success carries none, and a refusal gets its Retry-After from McpRateLimitedException.
    return { req, res: {} };
  }

  /** The principal, else the client address (`stdio` on stdio): the caller task quotas count too. */
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const { exchange } = req as McpThrottledRequest;
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
