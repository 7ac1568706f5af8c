import { setTimeout as delay } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';
import { resolveMcpRedisOptions } from '../../src/redis/mcp-redis.options.js';
import { RedisIdempotencyStore } from '../../src/redis/redis-idempotency.store.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

/** RedisIdempotencyStore on a real redis-server, two "nodes" being two connections. */

let redis: RedisServer;
const connections: McpRedisConnection[] = [];
const config = () => resolveMcpRedisOptions({ connection: redis.url, keyPrefix: 'idem-store:', flowClaimTtlMs: 600 });

async function node(): Promise<{ store: RedisIdempotencyStore; connection: McpRedisConnection }> {
  const connection = new McpRedisConnection(config());
  await connection.ready();
  connections.push(connection);
  return { store: new RedisIdempotencyStore(connection, config()), connection };
}

beforeAll(async () => {
  Logger.overrideLogger(false);
  redis = await startRedis();
});
afterAll(async () => {
  for (const connection of connections) await connection.onApplicationShutdown();
  await redis.stop();
});

const DONE = { result: { content: [{ type: 'text', text: 'done' }] } };

describe('RedisIdempotencyStore', () => {
  it('one node claims; the other is told it runs, then gets the recorded outcome', async () => {
    const [a, b] = [await node(), await node()];
    expect(await a.store.claim('k1', 'fp')).toEqual({ kind: 'run' });
    expect(await b.store.claim('k1', 'other')).toEqual({ kind: 'running', fingerprint: 'fp' });
    await a.store.settle('k1', 'fp', DONE);
    expect(await b.store.claim('k1', 'fp')).toEqual({ kind: 'recorded', fingerprint: 'fp', outcome: DONE });
  });

  it('a call that settles without an outcome frees the key', async () => {
    const [a, b] = [await node(), await node()];
    await a.store.claim('k2', 'fp');
    await a.store.settle('k2', 'fp', undefined);
    expect(await b.store.claim('k2', 'fp')).toEqual({ kind: 'run' });
  });

  it('a running claim outlives flowClaimTtlMs while its node renews it, and lapses once the node is gone', async () => {
    const [a, b] = [await node(), await node()];
    await a.store.claim('k3', 'fp');
    await delay(1000); // past the 600 ms ttl: renewed
    expect(await b.store.claim('k3', 'fp')).toEqual({ kind: 'running', fingerprint: 'fp' });
    await a.connection.onApplicationShutdown(); // the node dies: no more renewals
    await delay(800);
    expect(await b.store.claim('k3', 'fp')).toEqual({ kind: 'run' });
  });
});
