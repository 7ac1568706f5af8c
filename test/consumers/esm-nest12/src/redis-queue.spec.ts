import { McpError } from '@mocapi/nestjs';
import { McpTaskQueueFullException, McpTaskQueueModule, type McpTaskQueueOptions } from '@mocapi/nestjs/bullmq';
import {
  MCP_UNAVAILABLE,
  McpRedisModule,
  McpUnavailableException,
  RedisThrottlerStorage,
  type McpRedisOptions,
} from '@mocapi/nestjs/redis';
import { Redis } from 'ioredis';

describe('@mocapi/nestjs/redis and /bullmq (ESM, NestJS 12, Vitest), no Redis server needed', () => {
  // The application's own client; lazyConnect: nothing here makes it connect.
  const client = new Redis({ lazyConnect: true, maxRetriesPerRequest: null });
  afterAll(() => client.disconnect());

  it("defines the modules of a multi-node app on the application's client without connecting it", () => {
    const redisOptions: McpRedisOptions = { client, keyPrefix: 'orders:' };
    const queueOptions: McpTaskQueueOptions = { client, concurrency: 2, retries: { placeOrder: { attempts: 2 } } };
    const redis = McpRedisModule.forRoot(redisOptions);
    const queue = McpTaskQueueModule.forRootAsync({ useFactory: () => queueOptions });
    expect(redis.module).toBe(McpRedisModule);
    expect(queue.module).toBe(McpTaskQueueModule);
    expect(typeof RedisThrottlerStorage).toBe('function');
    expect(client.status).toBe('wait');
  });

  it("throws the root entry's McpError from both entries (one copy of the package)", () => {
    const full = new McpTaskQueueFullException(10);
    expect(full).toBeInstanceOf(McpError);
    expect(full.code).toBe(MCP_UNAVAILABLE);
    expect(full.data).toEqual({ retryAfterMs: 1000, maxQueuedTasks: 10 });
    expect(new McpUnavailableException(2500)).toBeInstanceOf(McpError);
  });
});
