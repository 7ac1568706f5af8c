// A claim on one Redis key, held by one node while it runs something once (a flow's final round,
// an idempotent tools/call): renewed while its holder lives, settled by it. One key each, so any
// Redis Cluster slot serves them.
import type { McpRedisConnection } from './mcp-redis-connection.js';
import { RedisScript } from './redis-script.js';

/** Renews a claim that is still ours. KEYS: the claim. ARGV: our token, the ttl (ms). */
const RENEW = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`);

/**
 * Releases a claim that is still ours: records `ARGV[2]` for `ARGV[3]` ms in its place, or frees
 * the key when `ARGV[2]` is empty. KEYS: the claim. ARGV: our token, the record, its lifetime (ms).
 */
export const SETTLE_CLAIM = new RedisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`);

/**
 * Renews the claim `token` holds on `key` every third of `ttlMs`, while it is ours; a failed renewal
 * is let go (the claim then lapses, as its holder's death would have it). Clear the timer to stop.
 */
export function renewClaim(redis: McpRedisConnection, key: string, token: string, ttlMs: number): NodeJS.Timeout {
  const renewal = setInterval(
    () => void redis.run((r) => RENEW.run(r, [key], [token, ttlMs])).catch(() => undefined),
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  renewal.unref();
  return renewal;
}
