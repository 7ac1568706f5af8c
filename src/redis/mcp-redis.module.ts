import { Global, Module, type Provider } from '@nestjs/common';
import {
  INTEGRATION_EVENT_BUS,
  INTEGRATION_FLOW_STORE,
  INTEGRATION_IDEMPOTENCY_STORE,
  INTEGRATION_SESSION_BACKPLANE,
  INTEGRATION_TASK_STORE,
} from '../core/mcp.tokens.js';
import { INTEGRATION_REDIS_HEALTH_PROBE, pingProbe } from '../core/mcp-health-probe.js';
import { McpRedisConnection } from './mcp-redis-connection.js';
import {
  MCP_REDIS_CONFIG,
  MCP_REDIS_MODULE_OPTIONS,
  McpRedisConfigurableModule,
} from './mcp-redis.module-definition.js';
import { type McpRedisOptions, resolveMcpRedisOptions } from './mcp-redis.options.js';
import { RedisEventBus } from './redis-event-bus.js';
import { RedisFlowStore } from './redis-flow.store.js';
import { RedisIdempotencyStore } from './redis-idempotency.store.js';
import { RedisSessionBackplane } from './redis-session-backplane.js';
import { RedisTaskStore } from './redis-task.store.js';
import { RedisAuthorizationStore } from './redis-authorization.store.js';
import { RedisThrottlerStorage } from './redis-throttler-storage.js';

const providers: Provider[] = [
  {
    provide: MCP_REDIS_CONFIG,
    useFactory: (options: McpRedisOptions) => resolveMcpRedisOptions(options),
    inject: [MCP_REDIS_MODULE_OPTIONS],
  },
  {
    provide: McpRedisConnection,
    useFactory: async (config: ReturnType<typeof resolveMcpRedisOptions>) => {
      const connection = new McpRedisConnection(config);
      await connection.ready();
      return connection;
    },
    inject: [MCP_REDIS_CONFIG],
  },
  RedisFlowStore,
  RedisEventBus,
  RedisSessionBackplane,
  RedisThrottlerStorage,
  RedisTaskStore,
  RedisAuthorizationStore,
  { provide: INTEGRATION_FLOW_STORE, useExisting: RedisFlowStore },
  { provide: INTEGRATION_IDEMPOTENCY_STORE, useClass: RedisIdempotencyStore },
  { provide: INTEGRATION_TASK_STORE, useExisting: RedisTaskStore },
  { provide: INTEGRATION_EVENT_BUS, useExisting: RedisEventBus },
  { provide: INTEGRATION_SESSION_BACKPLANE, useExisting: RedisSessionBackplane },
  // For @mocapi/nestjs/terminus.
  {
    provide: INTEGRATION_REDIS_HEALTH_PROBE,
    useFactory: (connection: McpRedisConnection) => pingProbe('redis', () => connection.run((redis) => redis.ping())),
    inject: [McpRedisConnection],
  },
];

/**
 * Runs several nodes of one MCP server on a shared Redis (through ioredis), behind any load
 * balancer, round robin included. Import it next to `McpModule`, in any order:
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpModule.forRoot({ name: 'orders', version: '1.0.0', mrtr: { secrets: [process.env.MCP_STATE_SECRET!] } }),
 *     McpRedisModule.forRoot({ connection: process.env.REDIS_URL!, keyPrefix: 'orders:' }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 *
 * It is global and fills the core's integration slots: the exactly-once flow store
 * ({@link RedisFlowStore}), the event bus that carries list_changed and resource updates to every
 * node's streams ({@link RedisEventBus}) and the backplane of 2025-era sessions
 * ({@link RedisSessionBackplane}) and the task store, so any node answers for any task
 * ({@link RedisTaskStore}); whatever the application passes to `McpModule.forRoot` still wins.
 * {@link RedisThrottlerStorage} is provided for the rate limiter's `storage`.
 *
 * @publicApi
 */
@Global()
@Module({
  providers,
  exports: [
    McpRedisConnection,
    RedisFlowStore,
    RedisEventBus,
    RedisSessionBackplane,
    RedisThrottlerStorage,
    RedisTaskStore,
    RedisAuthorizationStore,
    INTEGRATION_FLOW_STORE,
    INTEGRATION_IDEMPOTENCY_STORE,
    INTEGRATION_TASK_STORE,
    INTEGRATION_EVENT_BUS,
    INTEGRATION_SESSION_BACKPLANE,
    INTEGRATION_REDIS_HEALTH_PROBE,
  ],
})
export class McpRedisModule extends McpRedisConfigurableModule {}
