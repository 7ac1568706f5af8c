import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { MCP_REDIS_CONFIG } from './mcp-redis.module-definition.js';
import type { ResolvedMcpRedisOptions } from './mcp-redis.options.js';
import { McpUnavailableException } from './mcp-unavailable.exception.js';

/** Reconnect after 100 ms, 200 ms, ... at most every 1 s, for as long as it takes. */
const retryStrategy = (attempt: number): number => Math.min(attempt * 100, 1000);

/** How long startup waits for the first connection before serving anyway (requests then get 503 until it is up). */
const STARTUP_WAIT_MS = 5000;

type MessageHandler = (message: string) => void;

/**
 * The module's two Redis connections — commands, and a subscriber for pub/sub — and how every
 * command is run: only while connected, within `commandTimeoutMs`, otherwise an
 * {@link McpUnavailableException} at once (no queueing behind a dead connection, no hang). It logs
 * when Redis goes away and when it is back, once each; ioredis reconnects by itself.
 */
@Injectable()
export class McpRedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('McpRedis');
  private readonly commands: Redis;
  private readonly subscriber: Redis;
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
    this.subscriber = this.commands.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, retryStrategy });
    this.commands.on('error', (error: Error) => this.wentDown(error.message));
    this.commands.on('close', () => this.wentDown('the connection closed'));
    this.commands.on('ready', () => this.cameBack());
    this.subscriber.on('error', () => undefined); // the command connection reports outages
    this.subscriber.on('message', (channel: string, message: string) => this.handlers.get(channel)?.(message));
    // An application's client made with `lazyConnect` connects now: commands never queue here.
    if (this.commands.status === 'wait') this.commands.connect().catch(() => undefined);
  }

  /** The configured key prefix. */
  get prefix(): string {
    return this.config.keyPrefix;
  }

  /** Waits (boundedly) for the first connection, so a node that starts with Redis up serves at once. */
  async ready(): Promise<void> {
    const connected = (client: Redis) =>
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
  async run<T>(operation: (redis: Redis) => Promise<T>): Promise<T> {
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
      if (error instanceof Error && error.name === 'ReplyError') throw error;
      this.wentDown(error instanceof Error ? error.message : String(error));
      throw new McpUnavailableException();
    } finally {
      clearTimeout(timer);
    }
  }

  /** PUBLISH: resolves to how many subscribers (nodes) received the message. */
  publish(channel: string, message: string): Promise<number> {
    return this.run((redis) => redis.publish(channel, message));
  }

  /** Hands every message of `channel` to `handler` (one handler per channel), across reconnects. */
  subscribe(channel: string, handler: MessageHandler): void {
    this.handlers.set(channel, handler);
    this.subscriber.subscribe(channel).catch((error: Error) => this.wentDown(error.message));
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
