import type { Cluster, Redis, RedisOptions } from 'ioredis';

/**
 * Options of `McpTaskQueueModule.forRoot` / `forRootAsync`: either `connection` (the module opens
 * and closes its connections) or `client` (the application's ioredis client, made with
 * `maxRetriesPerRequest: null` as BullMQ requires; the module leaves it open).
 *
 * @publicApi
 */
export interface McpTaskQueueOptions {
  /** ioredis options, or a `redis://` URL, for the connections this module opens. */
  connection?: RedisOptions | string;
  /**
   * An ioredis client the application already has: a `Redis`, or a `Cluster` for Redis Cluster.
   * Either must be made with `maxRetriesPerRequest: null` (on a `Cluster`, in its `redisOptions`),
   * as BullMQ requires: startup refuses one without it.
   */
  client?: Redis | Cluster;
  /** The BullMQ queue of this server's tasks. Default `mcp-tasks`. */
  queueName?: string;
  /**
   * BullMQ's key prefix, so several servers can share one Redis. Default `bull`. On a Redis
   * Cluster BullMQ needs every key of a queue in one hash slot, so a prefix without a hash tag is
   * tagged by the module: `bull` becomes `{bull}`; a tagged one (`{myapp}`, `myapp:{reports}`) is
   * used as it is. Each queue then lives on one shard: give heavy servers prefixes of their own.
   */
  prefix?: string;
  /** How many task handlers one node runs at once. Default 4. */
  concurrency?: number;
  /** At most this many handlers of a tool at once on one node, by tool name (within `concurrency`). */
  toolConcurrency?: Readonly<Record<string, number>>;
  /**
   * At most this many tasks wait in the queue; a task call past it is refused with -32051
   * (HTTP 503, `Retry-After`) and nothing runs. Default 10000.
   */
  maxQueuedTasks?: number;
  /**
   * How long a node's hold on a running job lasts without renewal (BullMQ's `lockDuration`; renewed
   * every half of it). A job whose node died is taken by another node within about `lockMs` +
   * `stalledCheckMs` × 2 after its last renewal. Default 8000 ms.
   */
  lockMs?: number;
  /** How often each node looks for jobs whose node died (BullMQ's `stalledInterval`). Default 4000 ms. */
  stalledCheckMs?: number;
  /**
   * How often one task may lose its node before the queue gives up on it (BullMQ's
   * `maxStalledCount`); the task then fails with -32603. Default 5.
   */
  maxNodeLosses?: number;
  /**
   * Tools whose handler is tried again when it throws, by tool name: up to `attempts` runs in all,
   * `backoffMs` (default 1000) before the second, doubling after each. Only for handlers that are
   * safe to run again; every other tool's task ends on its first throw, as without the queue.
   */
  retries?: Readonly<Record<string, McpTaskRetry>>;
}

/**
 * How a tool's throwing handler is tried again ({@link McpTaskQueueOptions.retries}).
 *
 * @publicApi
 */
export interface McpTaskRetry {
  /** Runs in all, the first included (at least 2). */
  attempts: number;
  /** Wait before the second run, doubling after each. Default 1000 ms. */
  backoffMs?: number;
}

/** Options after defaults. */
export interface ResolvedMcpTaskQueueOptions {
  readonly connection?: RedisOptions | string;
  readonly client?: Redis | Cluster;
  readonly queueName: string;
  readonly prefix: string;
  readonly concurrency: number;
  readonly toolConcurrency: Readonly<Record<string, number>>;
  readonly maxQueuedTasks: number;
  readonly lockMs: number;
  readonly stalledCheckMs: number;
  readonly maxNodeLosses: number;
  readonly retries: Readonly<Record<string, Required<McpTaskRetry>>>;
}

const POSITIVE = ['concurrency', 'maxQueuedTasks', 'lockMs', 'stalledCheckMs', 'maxNodeLosses'] as const;

/** Applies the defaults; throws at startup, naming every wrong option. */
export function resolveMcpTaskQueueOptions(options: McpTaskQueueOptions): ResolvedMcpTaskQueueOptions {
  const problems: string[] = [];
  if ((options.connection === undefined) === (options.client === undefined)) {
    problems.push('exactly one of `connection` (ioredis options or a URL) and `client` is needed');
  }
  const resolved: ResolvedMcpTaskQueueOptions = {
    connection: options.connection,
    client: options.client,
    queueName: options.queueName ?? 'mcp-tasks',
    prefix: clusterPrefix(options.client, options.prefix ?? 'bull'),
    concurrency: options.concurrency ?? 4,
    toolConcurrency: options.toolConcurrency ?? {},
    maxQueuedTasks: options.maxQueuedTasks ?? 10_000,
    lockMs: options.lockMs ?? 8000,
    stalledCheckMs: options.stalledCheckMs ?? 4000,
    maxNodeLosses: options.maxNodeLosses ?? 5,
    retries: Object.fromEntries(
      Object.entries(options.retries ?? {}).map(([tool, retry]) => [
        tool,
        { attempts: retry.attempts, backoffMs: retry.backoffMs ?? 1000 },
      ]),
    ),
  };
  for (const key of POSITIVE) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1) problems.push(`${key} must be a positive integer`);
  }
  for (const [tool, limit] of Object.entries(resolved.toolConcurrency)) {
    if (!Number.isInteger(limit) || limit < 1) problems.push(`toolConcurrency.${tool} must be a positive integer`);
  }
  for (const [tool, retry] of Object.entries(resolved.retries)) {
    if (!Number.isInteger(retry.attempts) || retry.attempts < 2)
      problems.push(`retries.${tool}.attempts must be an integer of at least 2`);
    if (!Number.isInteger(retry.backoffMs) || retry.backoffMs < 0)
      problems.push(`retries.${tool}.backoffMs must be a non-negative integer (ms)`);
  }
  if (resolved.queueName.includes(':')) problems.push('queueName must not contain ":"');
  if (options.client !== undefined && retriesOf(options.client) !== null) {
    problems.push(
      options.client.isCluster
        ? 'a Cluster `client` needs `redisOptions: { maxRetriesPerRequest: null }` (BullMQ requires it)'
        : 'a `client` needs `maxRetriesPerRequest: null` (BullMQ requires it)',
    );
  }
  if (problems.length > 0) throw new Error(`McpTaskQueueModule: ${problems.join('; ')}`);
  return resolved;
}

/** On a cluster, `prefix` with a hash tag (`{prefix}` unless it has one); elsewhere `prefix` itself. */
function clusterPrefix(client: Redis | Cluster | undefined, prefix: string): string {
  return client?.isCluster === true && !/\{[^}]+\}/.test(prefix) ? `{${prefix}}` : prefix;
}

/** The client's `maxRetriesPerRequest` (a Cluster's is in its `redisOptions`). */
function retriesOf(client: Redis | Cluster): number | null | undefined {
  return client.isCluster
    ? (client as Cluster).options.redisOptions?.maxRetriesPerRequest
    : (client as Redis).options.maxRetriesPerRequest;
}
