import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { type ThrottlerAsyncOptions, ThrottlerModule, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { McpThrottlerGuard } from './mcp-throttler.guard.js';

/**
 * The default when `forRoot()` is given no options: 60 calls per minute per caller and per tool
 * (prompt, resource).
 *
 * @publicApi
 */
export const MCP_THROTTLER_DEFAULTS: ThrottlerModuleOptions = [{ name: 'default', ttl: 60_000, limit: 60 }];

const GUARD: Provider = { provide: APP_GUARD, useClass: McpThrottlerGuard };

/**
 * Rate limiting of MCP handler calls on @nestjs/throttler. Import it next to `McpModule`:
 * `forRoot()` (the default limit), `forRoot(options)` / `forRootAsync(...)` (ThrottlerModule's own
 * options: throttlers, storage, skipIf...), or `forExistingThrottler()` when the application already
 * imports `ThrottlerModule` for its HTTP routes (the MCP guard then uses that configuration).
 *
 * The guard is global but acts on the `mcp` execution context only.
 *
 * @publicApi
 */
@Module({})
export class McpThrottlerModule {
  static forRoot(options: ThrottlerModuleOptions = MCP_THROTTLER_DEFAULTS): DynamicModule {
    return { module: McpThrottlerModule, imports: [ThrottlerModule.forRoot(options)], providers: [GUARD] };
  }

  static forRootAsync(options: ThrottlerAsyncOptions): DynamicModule {
    return { module: McpThrottlerModule, imports: [ThrottlerModule.forRootAsync(options)], providers: [GUARD] };
  }

  /** Only the guard: the application's own (global) `ThrottlerModule` provides options and storage. */
  static forExistingThrottler(): DynamicModule {
    return { module: McpThrottlerModule, providers: [GUARD] };
  }
}
