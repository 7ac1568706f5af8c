import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type FlowClaim, McpFlowStore } from '../mrtr/mcp-flow.store.js';
import { McpRedisConnection } from './mcp-redis-connection.js';
import { MCP_REDIS_CONFIG } from './mcp-redis.module-definition.js';
import type { ResolvedMcpRedisOptions } from './mcp-redis.options.js';
import { renewClaim, SETTLE_CLAIM } from './redis-claim.js';
import { RedisScript } from './redis-script.js';

/** A flow's key holds `C<token>` while a node runs its final round, `R<json>` once it completed. */
const CLAIMED = 'C';
const RECORDED = 'R';

/** Takes the claim when the key is free; otherwise answers with what the key holds. */
const CLAIM = new RedisScript(`
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`);

/** How often a waiting final round looks again: 10 ms, growing to 200 ms. */
const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 200;

interface Held {
  readonly token: string;
  readonly renewal: NodeJS.Timeout;
}

/**
 * {@link McpFlowStore} on Redis, so a final round replayed on any node runs the handler at most once:
 * the claim is one atomic script (a key set only when absent, with an expiry); concurrent candidates
 * on any node wait until the holder settles, then answer with its recorded result. A node that dies
 * holding a claim stops renewing it, and the claim lapses after `flowClaimTtlMs`: the flow can then
 * complete elsewhere. Completions are kept until the flow's tokens expire.
 */
@Injectable()
export class RedisFlowStore extends McpFlowStore {
  private readonly logger = new Logger('McpRedis');
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly redis: McpRedisConnection,
    @Inject(MCP_REDIS_CONFIG) private readonly config: ResolvedMcpRedisOptions,
  ) {
    super();
  }

  async claim(flowId: string, expiresAt: number): Promise<FlowClaim> {
    const key = this.key(flowId);
    const ttl = this.config.flowClaimTtlMs;
    for (let pause = FIRST_POLL_MS; ; pause = Math.min(pause * 1.5, MAX_POLL_MS)) {
      const token = `${CLAIMED}${randomUUID()}`;
      let sent: Promise<unknown> | undefined;
      let held: unknown;
      try {
        held = await this.redis.run((r) => (sent = CLAIM.run(r, [key], [token, ttl])));
      } catch (error) {
        // Given up (Redis hung past commandTimeoutMs): the script may still run when Redis answers,
        // and a claim nobody holds would make the client's retry wait flowClaimTtlMs. Undo it then.
        void sent?.then((late) => (late === null ? this.release(key, token) : undefined)).catch(() => undefined);
        throw error;
      }
      if (held === null) {
        this.held.set(flowId, { token, renewal: renewClaim(this.redis, key, token, ttl) });
        return { kind: 'run' };
      }
      if (typeof held === 'string' && held.startsWith(RECORDED)) {
        return { kind: 'recorded', result: JSON.parse(held.slice(RECORDED.length)) as Record<string, unknown> };
      }
      if (Date.now() > expiresAt) return { kind: 'run' };
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async settle(flowId: string, result: Record<string, unknown> | undefined, expiresAt: number): Promise<void> {
    const held = this.held.get(flowId);
    if (!held) return;
    this.held.delete(flowId);
    clearInterval(held.renewal);
    const record = result === undefined ? '' : `${RECORDED}${JSON.stringify(result)}`;
    const keepMs = Math.max(1000, expiresAt - Date.now());
    try {
      await this.redis.run((r) => SETTLE_CLAIM.run(r, [this.key(flowId)], [held.token, record, keepMs]));
    } catch (error) {
      // The round ran and its answer goes out; only the record is missing (the claim lapses by itself).
      this.logger.warn(`Flow ${flowId}: its completion could not be recorded (${(error as Error).message})`);
    }
  }

  /** Frees the flow if `token` still holds it. */
  private async release(key: string, token: string): Promise<void> {
    await this.redis.run((r) => SETTLE_CLAIM.run(r, [key], [token, '', 0]));
  }

  private key(flowId: string): string {
    return `${this.redis.prefix}flow:${flowId}`;
  }
}
