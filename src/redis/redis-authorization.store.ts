import { Injectable } from '@nestjs/common';
import { McpRedisConnection } from './mcp-redis-connection.js';
import { RedisScript } from './redis-script.js';

/** Sets `consumed` (epoch seconds) on a stored record, keeping its expiry. */
const CONSUME = new RedisScript(`
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local record = cjson.decode(held)
record['consumed'] = tonumber(ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('SET', KEYS[1], cjson.encode(record), 'PX', ttl) else redis.call('SET', KEYS[1], cjson.encode(record)) end
return 1`);

/**
 * The authorization server's store (`McpAuthorizationStore` of `@mocapi/nestjs/authorization-server`)
 * on Redis, so a sign-in started on one node finishes on any other: each record is one JSON string
 * with the record's expiry, a record with a `uid` or `userCode` has an index key beside it, and a
 * grant's tokens and codes are listed in a set of the grant, so revoking the grant forgets them all.
 * A record and its index keys are written in one transaction on a single Redis, by one command each
 * on a cluster. Pass it as the module's `store`:
 *
 * ```ts
 * McpAuthorizationServerModule.forRootAsync({
 *   inject: [RedisAuthorizationStore],
 *   useFactory: (store: RedisAuthorizationStore) => ({ ...options, store }),
 * })
 * ```
 *
 * @publicApi
 */
@Injectable()
export class RedisAuthorizationStore {
  /** @internal `McpRedisModule` builds it on its connection. */
  constructor(private readonly redis: McpRedisConnection) {}

  async upsert(model: string, id: string, record: Record<string, unknown>, expiresInSeconds?: number): Promise<void> {
    const key = this.key(model, id);
    const ttl = expiresInSeconds === undefined ? [] : ['EX', expiresInSeconds];
    const writes: Array<Array<string | number>> = [['set', key, JSON.stringify(record), ...ttl]];
    for (const field of ['uid', 'userCode'] as const) {
      const value = record[field];
      if (typeof value === 'string') writes.push(['set', this.key(model, `${field}:${value}`), id, ...ttl]);
    }
    const grantId = record['grantId'];
    if (typeof grantId === 'string') {
      const grant = this.key('grant', grantId);
      writes.push(['sadd', grant, key]);
      if (expiresInSeconds !== undefined) writes.push(['expire', grant, expiresInSeconds, 'GT']);
    }
    await this.redis.run(async (redis) => {
      // One transaction on a single Redis; on a cluster the keys are in different slots, so each
      // write goes to its own (a record whose index write was lost is still found by its id).
      if (!this.redis.isCluster) await redis.multi(writes as string[][]).exec();
      else await Promise.all(writes.map(([command, ...args]) => redis.call(String(command), ...args)));
    });
  }

  async find(model: string, id: string): Promise<Record<string, unknown> | undefined> {
    const held = await this.redis.run((redis) => redis.get(this.key(model, id)));
    return held === null ? undefined : (JSON.parse(held) as Record<string, unknown>);
  }

  findByUid(model: string, uid: string): Promise<Record<string, unknown> | undefined> {
    return this.findBy(model, 'uid', uid);
  }

  findByUserCode(model: string, userCode: string): Promise<Record<string, unknown> | undefined> {
    return this.findBy(model, 'userCode', userCode);
  }

  async consume(model: string, id: string): Promise<void> {
    await this.redis.run((redis) => CONSUME.run(redis, [this.key(model, id)], [Math.floor(Date.now() / 1000)]));
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.redis.run((redis) => redis.del(this.key(model, id)));
  }

  async revokeByGrantId(_model: string, grantId: string): Promise<void> {
    const grant = this.key('grant', grantId);
    await this.redis.run(async (redis) => {
      const keys = await redis.smembers(grant);
      // On a cluster a DEL of several keys must stay in one slot: one DEL per key there.
      if (!this.redis.isCluster) await redis.del(grant, ...keys);
      else await Promise.all([grant, ...keys].map((key) => redis.del(key)));
    });
  }

  private async findBy(model: string, field: string, value: string): Promise<Record<string, unknown> | undefined> {
    const id = await this.redis.run((redis) => redis.get(this.key(model, `${field}:${value}`)));
    return id === null ? undefined : this.find(model, id);
  }

  private key(model: string, id: string): string {
    return `${this.redis.prefix}auth:${model}:${id}`;
  }
}
