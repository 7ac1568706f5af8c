import { Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { McpRedisConnection } from './mcp-redis-connection.js';
import { RedisScript } from './redis-script.js';

/**
 * One hit, atomically: a fixed window per key and throttler (the count expires `ttl` ms after its
 * first hit); past `limit` the key is blocked for `blockDuration` ms, and blocked hits do not count.
 * Answers { hits, ms to window end, blocked 0/1, ms to block end }.
 */
const HIT = new RedisScript(`
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then
  return { tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1]), 1, blocked }
end
local hits = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return { hits, left, 1, tonumber(ARGV[3]) }
end
return { hits, left, 0, 0 }`);

/**
 * A @nestjs/throttler storage on Redis, so a limit of N per window holds across all nodes: pass it
 * as the throttler's `storage` (e.g. `McpThrottlerModule.forRootAsync({ inject: [RedisThrottlerStorage],
 * useFactory: (storage) => ({ throttlers, storage }) })`). Each hit is one Lua script (count, expiry
 * and block decided together). When Redis cannot answer, the hit fails with
 * `McpUnavailableException` (503): the request is neither counted nor let through unmetered.
 *
 * @publicApi
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage {
  /** @internal `McpRedisModule` builds it on its connection. */
  constructor(private readonly redis: McpRedisConnection) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    // @nestjs/throttler's record, in its units (whole seconds, rounded up).
    // The two keys of one counter share a hash slot on a cluster; counters spread over the slots.
    const base = `${this.redis.prefix}throttle:${this.redis.tag(`${throttlerName}:${key}`)}`;
    const reply = (await this.redis.run((r) =>
      HIT.run(r, [`${base}:hits`, `${base}:block`], [Math.max(1, ttl), limit, Math.max(1, blockDuration)]),
    )) as [number, number, number, number];
    const [totalHits, windowLeft, blocked, blockLeft] = reply;
    return {
      totalHits,
      timeToExpire: Math.ceil(windowLeft / 1000),
      isBlocked: blocked === 1,
      timeToBlockExpire: Math.ceil(blockLeft / 1000),
    };
  }
}
