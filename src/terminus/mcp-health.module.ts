import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { McpHealthIndicator } from './mcp-health-indicator.js';

/**
 * Provides {@link McpHealthIndicator} for `@nestjs/terminus` health checks. Import it beside
 * `McpModule` (global, as by default) and `TerminusModule`, in the module of the health controller:
 *
 * ```ts
 * @Module({ imports: [TerminusModule, McpHealthModule], controllers: [HealthController] })
 * export class HealthModule {}
 * ```
 *
 * It finds `McpRedisModule` and `McpTaskQueueModule` by itself when they are imported, and then
 * checks that their Redis answers.
 *
 * @publicApi
 */
@Module({ imports: [TerminusModule], providers: [McpHealthIndicator], exports: [McpHealthIndicator] })
export class McpHealthModule {}
