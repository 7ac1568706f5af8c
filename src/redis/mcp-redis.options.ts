import type { Cluster, Redis, RedisOptions } from 'ioredis';

/**
 * Options of `McpRedisModule.forRoot` / `forRootAsync`: either `connection` (the module opens and
 * closes its connections) or `client` (the application's ioredis client; the module duplicates it
 * for pub/sub and leaves the client itself open).
 *
 * @publicApi
 */
export interface McpRedisOptions {
  /** ioredis options, or a `redis://` URL, for the connections this module opens. */
  connection?: RedisOptions | string;
  /**
   * An ioredis client the application already has: a `Redis`, or a `Cluster` for Redis Cluster
   * (Redis 7 or later: pub/sub is sharded). On a cluster the module hash-tags the keys each of its
   * scripts uses together (a task, a caller's task counts, a rate-limit counter): `keyPrefix` stays
   * a plain prefix.
   */
  client?: Redis | Cluster;
  /** Put before every key and channel, so several servers can share one Redis. Default `mocapi:`. */
  keyPrefix?: string;
  /**
   * How long a request waits for Redis before it is answered with the transient error
   * (`McpUnavailableException`, HTTP 503). Default 2000 ms.
   */
  commandTimeoutMs?: number;
  /**
   * How long a final round's claim on a flow outlives its node: a running claim is renewed every
   * third of this; when its node dies, another node may run the flow once it lapses. Default 15000 ms.
   */
  flowClaimTtlMs?: number;
}

/** Options after defaults. */
export interface ResolvedMcpRedisOptions {
  readonly connection?: RedisOptions | string;
  readonly client?: Redis | Cluster;
  readonly keyPrefix: string;
  readonly commandTimeoutMs: number;
  readonly flowClaimTtlMs: number;
}

/** Thrown at startup when the options are wrong. */
export function resolveMcpRedisOptions(options: McpRedisOptions): ResolvedMcpRedisOptions {
  if ((options.connection === undefined) === (options.client === undefined)) {
    throw new Error('McpRedisModule needs exactly one of `connection` (ioredis options or a URL) and `client`');
  }
  const resolved = {
    connection: options.connection,
    client: options.client,
    keyPrefix: options.keyPrefix ?? 'mocapi:',
    commandTimeoutMs: options.commandTimeoutMs ?? 2000,
    flowClaimTtlMs: options.flowClaimTtlMs ?? 15_000,
  };
  for (const key of ['commandTimeoutMs', 'flowClaimTtlMs'] as const) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1) {
      throw new Error(`McpRedisModule: ${key} must be a positive integer (ms)`);
    }
  }
  return resolved;
}
