import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type Cluster, Redis } from 'ioredis';
import { MCP_REDIS_CONFIG } from './mcp-redis.module-definition.js';
import type { ResolvedMcpRedisOptions } from './mcp-redis.options.js';
import { McpUnavailableException } from './mcp-unavailable.exception.js';

/** Reconnect after 100 ms, 200 ms, ... at most every 1 s, for as long as it takes. */
const retryStrategy = (attempt: number): number => Math.min(attempt * 100, 1000);

/** How long startup waits for the first connection before serving anyway (requests then get 503 until it is up). */
const STARTUP_WAIT_MS = 5000;

type MessageHandler = (message: string) => void;

/** A single Redis or a Redis Cluster: every command the module sends exists on both. */
export type McpRedisClient = Redis | Cluster;

/**
 * Error replies that say the cluster is moving (a failover, a resharding, a node still loading):
 * the same request succeeds shortly, so they are transient, not a bug.
 */
const TRANSIENT_REPLY = /^(CLUSTERDOWN|TRYAGAIN|MOVED|ASK|LOADING|READONLY|MASTERDOWN|NOREPLICAS)\b/;

/**
 * The module's two Redis connections — commands, and a subscriber for pub/sub — and how every
 * command is run: only while connected, within `commandTimeoutMs`, otherwise an
 * {@link McpUnavailableException} at once (no queueing behind a dead connection, no hang). It logs
 * when Redis goes away and when it is back, once each; ioredis reconnects by itself.
 *
 * On a Redis Cluster (an ioredis `Cluster` as `client`) pub/sub is sharded (SPUBLISH/SSUBSCRIBE,
 * through a duplicate of the cluster with `shardedSubscribers`), keys that one script or
 * transaction uses together share a hash tag ({@link tag}), and the replies of a cluster in
 * transition (CLUSTERDOWN, TRYAGAIN, MOVED past ioredis's redirections...) are transient: 503.
 */
@Injectable()
export class McpRedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('McpRedis');
  private readonly commands: McpRedisClient;
  private readonly subscriber: McpRedisClient;
  /** Whether Redis is a cluster: keys are then hash-tagged and pub/sub is sharded. */
  readonly isCluster: boolean;
  private readonly ownsCommands: boolean;
  private readonly handlers = new Map<string, MessageHandler>();
  /** Why Redis is considered down (logged once), or undefined while it answers. */
  private outage: string | undefined;
  private closing = false;

  constructor(@Inject(MCP_REDIS_CONFIG) private readonly config: ResolvedMcpRedisOptions) {
    this.ownsCommands = config.client === undefined;
    // Commands fail fast while disconnected (no offline queue); the subscriber queues its
    // SUBSCRIBEs until connected and re-subscribes after every reconnect.
    this.commands =
      config.client ??
      (typeof config.connection === 'string'
        ? new Redis(config.connection, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy })
        : new Redis({ ...config.connection, enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy }));
    this.isCluster = this.commands.isCluster;
    this.subscriber = this.commands.isCluster
      ? (this.commands as unknown as Cluster).duplicate([], { shardedSubscribers: true, enableOfflineQueue: true })
      : (this.commands as Redis).duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, retryStrategy });
    this.commands.on('error', (error: Error) => this.wentDown(error.message));
    this.commands.on('close', () => this.wentDown('the connection closed'));
    this.commands.on('ready', () => this.cameBack());
    this.subscriber.on('error', () => undefined); // the command connection reports outages
    const deliver = (channel: string, message: string) => this.handlers.get(channel)?.(message);
    this.subscriber.on(this.isCluster ? 'smessage' : 'message', deliver);
    // An application's client made with `lazyConnect` connects now: commands never queue here.
    if (this.commands.status === 'wait') this.commands.connect().catch(() => undefined);
  }

  /** The configured key prefix. */
  get prefix(): string {
    return this.config.keyPrefix;
  }

  /**
   * The part of a key that decides its hash slot: on a cluster `{part}` (a hash tag), so the keys
   * one script uses together (built with the same part) land in one slot while different parts
   * spread over the cluster; on a single Redis `part` itself, so its keys keep the names they
   * always had.
   */
  tag(part: string): string {
    return this.isCluster ? `{${part}}` : part;
  }

  /** Waits (boundedly) for the first connection, so a node that starts with Redis up serves at once. */
  async ready(): Promise<void> {
    const connected = (client: McpRedisClient) =>
      client.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => client.once('ready', resolve));
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      Promise.all([connected(this.commands), connected(this.subscriber)]).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STARTUP_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (!waited) this.wentDown(`no connection within ${STARTUP_WAIT_MS} ms of startup`);
  }

  /**
   * Runs `operation` on the command connection within the timeout. Connection failures and
   * timeouts become an {@link McpUnavailableException}; Redis's own error replies (a bug) are rethrown.
   */
  async run<T>(operation: (redis: McpRedisClient) => Promise<T>): Promise<T> {
    if (this.commands.status !== 'ready') throw new McpUnavailableException();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.config.commandTimeoutMs} ms`)),
        this.config.commandTimeoutMs,
      );
    });
    try {
      const result = await Promise.race([operation(this.commands), timeout]);
      this.cameBack();
      return result;
    } catch (error) {
      if (error instanceof Error && error.name === 'ReplyError' && !TRANSIENT_REPLY.test(error.message)) throw error;
      this.wentDown(error instanceof Error ? error.message : String(error));
      throw new McpUnavailableException();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * PUBLISH (SPUBLISH on a cluster): resolves to how many subscribers received the message. On a
   * cluster that counts only the subscribers connected to the node it reached (during a failover
   * possibly none), so 0 there does not prove nobody listens.
   */
  publish(channel: string, message: string): Promise<number> {
    return this.run(async (redis) =>
      Number(this.isCluster ? await redis.spublish(channel, message) : await redis.publish(channel, message)),
    );
  }

  /** Hands every message of `channel` to `handler` (one handler per channel), across reconnects. */
  subscribe(channel: string, handler: MessageHandler): void {
    this.handlers.set(channel, handler);
    const subscribed = this.isCluster ? this.subscriber.ssubscribe(channel) : this.subscriber.subscribe(channel);
    subscribed.catch((error: Error) => this.wentDown(error.message));
  }

  /**
   * Closes the connections this module opened (not the application's client) and waits, boundedly,
   * until they are. Last in a shutdown (after the HTTP server answered its last requests and the
   * task runner wrote the endings of the handlers it stopped), so those writes still reach Redis.
   */
  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    const closing = [this.subscriber, ...(this.ownsCommands ? [this.commands] : [])].map((client) => {
      if (client.status === 'end') return Promise.resolve();
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      client.disconnect();
      return ended;
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closing), new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
  }

  private wentDown(reason: string): void {
    if (this.outage !== undefined || this.closing) return;
    this.outage = reason;
    this.logger.error(
      `Redis is unreachable (${reason}): requests that need it are answered 503 (-32051) until it is back; ` +
        'reconnecting',
    );
  }

  private cameBack(): void {
    if (this.outage === undefined) return;
    this.outage = undefined;
    this.logger.log('Redis is reachable again: full service');
  }
}
