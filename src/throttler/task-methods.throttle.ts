import { Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { McpPrincipalSource } from '../mrtr/mcp-principal.source.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { TaskMethodsLimiter } from '../tasks/task-methods.limiter.js';
import { McpThrottlerGuard } from './mcp-throttler.guard.js';

/**
 * What the guard sees as the handler of a task method: one method per MCP method, none decorated,
 * so the module's throttlers apply as they do to an undecorated tool (and its `skipIf` can tell
 * them apart by `context.getArgByIndex(1).method`).
 */
class McpTaskMethods {
  'tasks/get'(): void {}
  'tasks/update'(): void {}
  'tasks/cancel'(): void {}
}

const HANDLERS: Record<string, () => void> = {
  'tasks/get': McpTaskMethods.prototype['tasks/get'],
  'tasks/update': McpTaskMethods.prototype['tasks/update'],
  'tasks/cancel': McpTaskMethods.prototype['tasks/cancel'],
};

/**
 * Rate limits tasks/get, tasks/update and tasks/cancel with the same throttlers, storage, tracker
 * and error as {@link McpThrottlerGuard} applies to tools/call: counted per caller and per method
 * (all of a caller's tasks/get share one counter), -32050 with HTTP 429 and `Retry-After` past it.
 */
@Injectable()
export class TaskMethodsThrottle extends TaskMethodsLimiter implements OnModuleInit {
  private readonly guard: McpThrottlerGuard;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Optional() principals?: McpPrincipalSource,
  ) {
    super();
    this.guard = new McpThrottlerGuard(options, storage, reflector, principals);
  }

  onModuleInit(): Promise<void> {
    return this.guard.onModuleInit();
  }

  async check(exchange: McpExchange): Promise<void> {
    const handler = HANDLERS[exchange.method];
    if (!handler) return;
    const context = new ExecutionContextHost([undefined, exchange], McpTaskMethods, handler);
    context.setType('mcp');
    await this.guard.canActivate(context);
  }
}
