import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { IDEMPOTENCY_RETENTION_MS } from '../calls/in-memory-idempotency.store.js';
import { type IdempotencyClaim, type IdempotentOutcome, McpIdempotencyStore } from '../calls/mcp-idempotency.store.js';
import { McpRedisConnection } from './mcp-redis-connection.js';
import { renewClaim, SETTLE_CLAIM } from './redis-claim.js';
import { MCP_REDIS_CONFIG } from './mcp-redis.module-definition.js';
import type { ResolvedMcpRedisOptions } from './mcp-redis.options.js';

/** A key holds `C<fingerprint> <token>` while a node runs the call, `R<fingerprint> <outcome json>` once it ended. */
const CLAIMED = 'C';
const RECORDED = 'R';

interface Held {
  readonly claim: string;
  readonly renewal: NodeJS.Timeout;
}

/**
 * {@link McpIdempotencyStore} on Redis, so a retried `tools/call` that reaches any node gets the
 * first call's answer. Every operation touches one key (SET NX with an expiry to claim, GET to
 * read, a one-key script to renew and settle), so it works on a Redis Cluster as on one Redis. A
 * node that dies while it runs a call stops renewing its claim, which lapses after
 * `flowClaimTtlMs`: the key is free again (the call may then run twice: SEP-3182's stated limit).
 * Outcomes are kept for an hour.
 */
@Injectable()
export class RedisIdempotencyStore extends McpIdempotencyStore {
  readonly retentionMs = IDEMPOTENCY_RETENTION_MS;
  private readonly logger = new Logger('McpRedis');
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly redis: McpRedisConnection,
    @Inject(MCP_REDIS_CONFIG) private readonly config: ResolvedMcpRedisOptions,
  ) {
    super();
  }

  async claim(key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const name = this.key(key);
    const ttl = this.config.flowClaimTtlMs;
    // A claim that lapses between the SET and the GET frees the key: take it on the next turn.
    for (;;) {
      const claim = `${CLAIMED}${fingerprint} ${randomUUID()}`;
      const taken = await this.redis.run((r) => r.set(name, claim, 'PX', ttl, 'NX'));
      if (taken === 'OK') {
        this.held.set(key, { claim, renewal: renewClaim(this.redis, name, claim, ttl) });
        return { kind: 'run' };
      }
      const value = await this.redis.run((r) => r.get(name));
      if (value === null) continue;
      const space = value.indexOf(' ');
      const held = value.slice(1, space);
      if (value.startsWith(RECORDED)) {
        return {
          kind: 'recorded',
          fingerprint: held,
          outcome: JSON.parse(value.slice(space + 1)) as IdempotentOutcome,
        };
      }
      return { kind: 'running', fingerprint: held };
    }
  }

  async settle(key: string, fingerprint: string, outcome: IdempotentOutcome | undefined): Promise<void> {
    const held = this.held.get(key);
    if (!held) return;
    this.held.delete(key);
    clearInterval(held.renewal);
    const record = outcome === undefined ? '' : `${RECORDED}${fingerprint} ${JSON.stringify(outcome)}`;
    try {
      await this.redis.run((r) => SETTLE_CLAIM.run(r, [this.key(key)], [held.claim, record, this.retentionMs]));
    } catch (error) {
      // The call ran and its answer goes out; only the record is missing (the claim lapses by itself).
      this.logger.warn(`An idempotent tools/call's outcome could not be recorded (${(error as Error).message})`);
    }
  }

  private key(key: string): string {
    return `${this.redis.prefix}idem:${key}`;
  }
}
