import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { type ThrottlerAsyncOptions, ThrottlerModule, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { TaskMethodsLimiter } from '../task-store/task-methods-limiter.js';
import { McpThrottlerGuard } from './mcp-throttler.guard.js';
import { TaskMethodsThrottle } from './task-methods-throttle.js';

/**
 * The default when `forRoot()` is given no options: 60 calls per minute per caller and per tool
 * (prompt, resource).
 *
 * @publicApi
 */
export const MCP_THROTTLER_DEFAULTS: ThrottlerModuleOptions = [{ name: 'default', ttl: 60_000, limit: 60 }];

const GUARD: Provider = { provide: APP_GUARD, useClass: McpThrottlerGuard };
/** The tasks extension's own methods are no handlers behind the guard: McpModule asks this instead. */
const TASK_METHODS: Provider = { provide: TaskMethodsLimiter, useClass: TaskMethodsThrottle };
/** Global so that McpModule's task methods see the limiter, whatever imports this module. */
const shared = { global: true, providers: [GUARD, TASK_METHODS], exports: [TaskMethodsLimiter] };

/**
 * Rate limiting of MCP handler calls on @nestjs/throttler. Import it next to `McpModule`:
 * `forRoot()` (the default limit), `forRoot(options)` / `forRootAsync(...)` (ThrottlerModule's own
 * options: throttlers, storage, skipIf...), or `forExistingThrottler()` when the application already
 * imports `ThrottlerModule` for its HTTP routes (the MCP guard then uses that configuration).
 *
 * The guard is global but acts on the `mcp` execution context only. The tasks extension's methods
 * (tasks/get, tasks/update, tasks/cancel) are counted with the same throttlers, per caller and
 * per method; a throttler's `skipIf` can exempt them (`context.getArgByIndex(1).method`).
 *
 * @publicApi
 */
@Module({})
export class McpThrottlerModule {
  static forRoot(options: ThrottlerModuleOptions = MCP_THROTTLER_DEFAULTS): DynamicModule {
    return { module: McpThrottlerModule, imports: [ThrottlerModule.forRoot(options)], ...shared };
  }

  static forRootAsync(options: ThrottlerAsyncOptions): DynamicModule {
    return { module: McpThrottlerModule, imports: [ThrottlerModule.forRootAsync(options)], ...shared };
  }

  /** Only the guard: the application's own (global) `ThrottlerModule` provides options and storage. */
  static forExistingThrottler(): DynamicModule {
    return { module: McpThrottlerModule, ...shared };
  }
}
