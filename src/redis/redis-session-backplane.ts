import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ChainableCommander } from 'ioredis';
import { McpSessionBackplane } from '../legacy/mcp-session-backplane.js';
import { LOCAL_PUSH_NODE, pushNodeOf } from '../legacy/push-ids.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { isLoggingLevel } from '../protocol/logging-level.js';
import type { LoggingLevel } from '../protocol/wire-types.js';
import { McpRedisConnection } from './mcp-redis-connection.js';
import { MCP_REDIS_CONFIG } from './mcp-redis.module-definition.js';
import type { ResolvedMcpRedisOptions } from './mcp-redis.options.js';
import { McpUnavailableException } from './mcp-unavailable.exception.js';
import { LEGACY_DEFAULTS } from '../legacy/mcp-legacy.options.js';

/** A session's shared state lives as long as its id may be used (`legacy.sessionTtlMs`, default 24 h). */
const SUBSCRIPTION_FIELD = 'sub:';

/** What one node tells another directly: a client's answer to a push, and whether it was taken. */
type NodeMessage =
  | {
      readonly t: 'answer';
      readonly sid: string;
      readonly message: Record<string, unknown>;
      readonly reply: string;
      readonly rid: string;
    }
  | { readonly t: 'taken'; readonly rid: string; readonly ok: boolean };

/** What a node tells every node about a session. */
type SessionMessage =
  | { readonly t: 'end'; readonly sid: string; readonly from: string }
  | {
      readonly t: 'state';
      readonly sid: string;
      readonly from: string;
      readonly state: McpSessionBackplane.SharedState;
    };

/**
 * {@link McpSessionBackplane} on Redis. A session's shared state is one hash with the session's
 * lifetime as expiry (`ended`, `level`, one `sub:<uri>` field per subscription); every change is
 * also broadcast, so the node holding the session's GET stream filters resource updates by the
 * current subscriptions. A client's response that lands on another node than the one that pushed
 * the request (the node is named in the request id) is published on that node's channel, and the
 * node acknowledges whether a request was waiting: 202 when one was, 400 when none was (or no such
 * node listens any more). On a Redis Cluster (sharded pub/sub) a node that does not acknowledge
 * within `commandTimeoutMs` counts as listening no more, since SPUBLISH's count cannot tell.
 */
@Injectable()
export class RedisSessionBackplane extends McpSessionBackplane {
  private handlers: McpSessionBackplane.Handlers | undefined;
  private readonly awaiting = new Map<string, (ok: boolean) => void>();
  private readonly broadcast: string;
  private sessionTtlMs = LEGACY_DEFAULTS.sessionTtlMs;

  constructor(
    private readonly redis: McpRedisConnection,
    @Inject(MCP_REDIS_CONFIG) private readonly config: ResolvedMcpRedisOptions,
  ) {
    super();
    this.broadcast = `${redis.prefix}sessions`;
  }

  /** Every change is in the session's hash: an evicted idle state is reloaded from it. */
  override get keepsState(): boolean {
    return true;
  }

  attach(handlers: McpSessionBackplane.Handlers): void {
    this.handlers = handlers;
    this.sessionTtlMs = handlers.sessionTtlMs;
    this.redis.subscribe(this.nodeChannel(LOCAL_PUSH_NODE), (raw) => this.fromNode(raw));
    this.redis.subscribe(this.broadcast, (raw) => this.fromAnyNode(raw));
  }

  async load(sessionId: string): Promise<McpSessionBackplane.SharedState | undefined> {
    const hash = await this.redis.run((r) => r.hgetall(this.key(sessionId)));
    return Object.keys(hash).length === 0 ? undefined : stateOf(hash);
  }

  setLogLevel(sessionId: string, level: LoggingLevel): Promise<void> {
    return this.change(sessionId, (key, multi) => multi.hset(key, 'level', level));
  }

  setSubscribed(sessionId: string, uri: string, subscribed: boolean): Promise<void> {
    const field = `${SUBSCRIPTION_FIELD}${uri}`;
    return this.change(sessionId, (key, multi) => (subscribed ? multi.hset(key, field, '1') : multi.hdel(key, field)));
  }

  async end(sessionId: string): Promise<void> {
    const key = this.key(sessionId);
    // The subscriptions go with the session: only the mark that refuses its id stays, until it expires.
    await this.redis.run((r) => r.multi().del(key).hset(key, 'ended', '1').pexpire(key, this.sessionTtlMs).exec());
    await this.tellAll({ t: 'end', sid: sessionId, from: LOCAL_PUSH_NODE });
  }

  async forward(sessionId: string, message: Record<string, unknown>): Promise<boolean> {
    const id = message['id'];
    const node = typeof id === 'string' ? pushNodeOf(id) : undefined;
    if (node === undefined || node === LOCAL_PUSH_NODE) return false;
    const rid = randomUUID();
    const taken = new Promise<boolean | undefined>((resolve) => this.awaiting.set(rid, resolve));
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer: NodeMessage = { t: 'answer', sid: sessionId, message, reply: LOCAL_PUSH_NODE, rid };
      const listeners = await this.redis.publish(this.nodeChannel(node), JSON.stringify(answer));
      // On a cluster the count covers only the subscribers of the node the message reached: 0 proves
      // nothing there, so the node's acknowledgement decides, and none in time means nobody took it.
      if (listeners === 0 && !this.redis.isCluster) return false;
      const ok = await Promise.race([
        taken,
        new Promise<undefined>(
          (resolve) => (timer = setTimeout(() => resolve(undefined), this.config.commandTimeoutMs)),
        ),
      ]);
      if (ok === undefined && listeners === 0) return false;
      if (ok === undefined) throw new McpUnavailableException();
      return ok;
    } finally {
      clearTimeout(timer);
      this.awaiting.delete(rid);
    }
  }

  /** Applies a change to the hash, renews its expiry, and broadcasts the resulting state. */
  private async change(sessionId: string, write: (key: string, multi: ChainableCommander) => unknown): Promise<void> {
    const key = this.key(sessionId);
    const replies = await this.redis.run((r) => {
      const multi = r.multi();
      write(key, multi);
      return multi.pexpire(key, this.sessionTtlMs).hgetall(key).exec();
    });
    const hash = replies?.at(-1)?.[1] as Record<string, string> | undefined;
    await this.tellAll({ t: 'state', sid: sessionId, from: LOCAL_PUSH_NODE, state: stateOf(hash ?? {}) });
  }

  private async tellAll(message: SessionMessage): Promise<void> {
    await this.redis.publish(this.broadcast, JSON.stringify(message));
  }

  private fromNode(raw: string): void {
    const message = parse(raw) as NodeMessage | undefined;
    if (message?.t === 'taken' && typeof message.rid === 'string') {
      this.awaiting.get(message.rid)?.(message.ok === true);
    } else if (
      message?.t === 'answer' &&
      typeof message.sid === 'string' &&
      isJsonObject(message.message) &&
      typeof message.reply === 'string' &&
      typeof message.rid === 'string'
    ) {
      const ok = this.handlers?.deliver(message.sid, message.message) ?? false;
      const reply: NodeMessage = { t: 'taken', rid: message.rid, ok };
      this.redis.publish(this.nodeChannel(message.reply), JSON.stringify(reply)).catch(() => undefined);
    }
  }

  private fromAnyNode(raw: string): void {
    const message = parse(raw) as SessionMessage | undefined;
    if (!message || message.from === LOCAL_PUSH_NODE || typeof message.sid !== 'string') return;
    if (message.t === 'end') this.handlers?.ended(message.sid);
    else if (message.t === 'state' && isJsonObject(message.state)) {
      const { logLevel, subscriptions } = message.state;
      this.handlers?.changed(message.sid, {
        ended: false,
        ...(isLoggingLevel(logLevel) && { logLevel }),
        subscriptions: Array.isArray(subscriptions) ? subscriptions.filter((u) => typeof u === 'string') : [],
      });
    }
  }

  private key(sessionId: string): string {
    return `${this.redis.prefix}session:${sessionId}`;
  }

  private nodeChannel(node: string): string {
    return `${this.redis.prefix}node:${node}`;
  }
}

/** The shared state a session hash holds. */
function stateOf(hash: Record<string, string>): McpSessionBackplane.SharedState {
  const level = hash['level'];
  return {
    ended: hash['ended'] === '1',
    ...(isLoggingLevel(level) && { logLevel: level }),
    subscriptions: Object.keys(hash)
      .filter((field) => field.startsWith(SUBSCRIPTION_FIELD))
      .map((field) => field.slice(SUBSCRIPTION_FIELD.length)),
  };
}

function parse(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
