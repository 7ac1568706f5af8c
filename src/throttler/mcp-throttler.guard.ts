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
import { McpExecutionContext } from '../discovery/mcp-execution-context.js';
import { McpPrincipalSource } from '../mrtr/mcp-principal.source.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpRateLimitedException } from './mcp-rate-limited.exception.js';

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
 * and `@SkipThrottle()` on the handler method or its class apply as on HTTP routes. An exceeded
 * limit throws {@link McpRateLimitedException}.
 *
 * @publicApi
 */
@Injectable()
export class McpThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storageService: ThrottlerStorage,
    reflector: Reflector,
    @Optional() private readonly principals?: McpPrincipalSource,
  ) {
    super(options, storageService, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() !== 'mcp') return true;
    return super.canActivate(context);
  }

  protected override getRequestResponse(context: ExecutionContext): {
    req: Record<string, unknown>;
    res: Record<string, unknown>;
  } {
    const mcp = McpExecutionContext.create(context);
    const req: McpThrottledRequest = { headers: mcp.getHttpRequest()?.headers ?? {}, exchange: mcp.getExchange() };
    // No response object: an MCP success carries no rate-limit headers, so setting them is a no-op.
    return { req, res: {} };
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const exchange = (req as unknown as McpThrottledRequest).exchange;
    const principal = this.principals?.resolve(exchange) ?? null;
    if (principal !== null) return `principal:${principal}`;
    const transport = exchange.transport;
    if (transport.kind !== 'http') return 'stdio';
    return `address:${transport.request.socket.remoteAddress ?? 'unknown'}`;
  }

  protected override generateKey(context: ExecutionContext, tracker: string, throttlerName: string): string {
    const mcp = McpExecutionContext.create(context);
    return `mcp:${throttlerName}:${mcp.getMethod()}:${mcp.getTarget() ?? ''}:${tracker}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    // timeToBlockExpire is in whole seconds (the storage's own unit for Retry-After).
    throw new McpRateLimitedException(Math.max(0, detail.timeToBlockExpire) * 1000);
  }
}
