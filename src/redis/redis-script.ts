import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/**
 * A Lua script run atomically by Redis: by its SHA-1 (EVALSHA), loaded on first use and again
 * whenever the server forgot it (a restart, a replica promoted), without touching the client's own
 * command table. On a cluster its keys must share one hash slot.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis | Cluster, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
