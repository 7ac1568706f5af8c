import { type ExecutionContext, Injectable, type OnModuleInit, Optional, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { TaskMethodsLimiter } from '../task-store/task-methods-limiter.js';
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

type RpcArgumentsHost = ReturnType<ExecutionContext['switchToRpc']>;
type HttpArgumentsHost = ReturnType<ExecutionContext['switchToHttp']>;
type WsArgumentsHost = ReturnType<ExecutionContext['switchToWs']>;

/**
 * The execution context a guard sees for a task method: the same arguments as a tool's
 * (`[undefined, exchange]`), type `'mcp'`. Written here rather than borrowed from Nest's internal
 * `ExecutionContextHost`, which is not part of its public API.
 */
class TaskMethodContext implements ExecutionContext {
  constructor(
    private readonly args: [undefined, McpExchange],
    private readonly handler: () => void,
  ) {}

  getClass<T = unknown>(): Type<T> {
    return McpTaskMethods as Type<T>;
  }
  getHandler(): () => void {
    return this.handler;
  }
  getArgs<T extends unknown[] = unknown[]>(): T {
    return this.args as unknown as T;
  }
  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }
  getType<T extends string = string>(): T {
    return 'mcp' as T;
  }
  // Like any context over these arguments: the first is the "request", the second the "data".
  switchToRpc(): RpcArgumentsHost {
    return { getData: <T>() => this.args[1] as T, getContext: <T>() => this.args[0] as T };
  }
  switchToHttp(): HttpArgumentsHost {
    return {
      getRequest: <T>() => this.args[0] as T,
      getResponse: <T>() => this.args[1] as T,
      getNext: <T>() => undefined as T,
    };
  }
  switchToWs(): WsArgumentsHost {
    return {
      getClient: <T>() => this.args[0] as T,
      getData: <T>() => this.args[1] as T,
      getPattern: () => '',
    };
  }
}

/**
 * Rate limits tasks/get, tasks/update and tasks/cancel with the same throttlers, storage, tracker
 * and error as {@link McpThrottlerGuard} applies to tools/call: counted per caller, per method and
 * per task (as tools/call counts per tool), so a client polling several tasks at the suggested
 * interval is not throttled for having more than one. Only tasks the caller owns are counted;
 * past the limit: -32050 with HTTP 429 and `Retry-After`.
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
    await this.guard.canActivate(new TaskMethodContext([undefined, exchange], handler));
  }
}
