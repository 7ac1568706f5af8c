import { Logger } from '@nestjs/common';
import { InMemoryAuthorizationStore } from '../../src/authorization-server/in-memory-authorization.store.js';
import type { McpAuthorizationStore } from '../../src/authorization-server/mcp-authorization.store.js';
import { McpRedisConnection } from '../../src/redis/mcp-redis-connection.js';
import { resolveMcpRedisOptions } from '../../src/redis/mcp-redis.options.js';
import { RedisAuthorizationStore } from '../../src/redis/redis-authorization.store.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

// The same contract, on the default store and on a real redis-server (two connections: two nodes).

let redis: RedisServer;
const connections: McpRedisConnection[] = [];

beforeAll(async () => {
  Logger.overrideLogger(false);
  redis = await startRedis();
});
afterAll(async () => {
  for (const connection of connections) await connection.onApplicationShutdown();
  await redis.stop();
});

let prefixes = 0;
async function redisNodes(): Promise<[McpAuthorizationStore, McpAuthorizationStore]> {
  const keyPrefix = `auth-${prefixes++}:`;
  const open = async () => {
    const connection = new McpRedisConnection(resolveMcpRedisOptions({ connection: redis.url, keyPrefix }));
    await connection.ready();
    connections.push(connection);
    // Typed as the authorization server's seam: the Redis entry implements it without importing it.
    const store: McpAuthorizationStore = new RedisAuthorizationStore(connection);
    return store;
  };
  return [await open(), await open()];
}

const STORES: Array<[string, () => Promise<[McpAuthorizationStore, McpAuthorizationStore]>]> = [
  [
    'in memory',
    async () => {
      const store = new InMemoryAuthorizationStore();
      return [store, store];
    },
  ],
  ['on Redis, written on one node and read on another', redisNodes],
];

describe.each(STORES)('the authorization store %s', (_name, make) => {
  it('keeps a record until it expires, as written', async () => {
    const [a, b] = await make();
    await a.upsert('Interaction', 'i1', { uid: 'i1', returnTo: '/oauth/authorize/i1' }, 1);
    await a.upsert('Client', 'c1', { client_id: 'c1', redirect_uris: ['https://host.example/cb'] });
    expect(await b.find('Interaction', 'i1')).toEqual({ uid: 'i1', returnTo: '/oauth/authorize/i1' });
    expect(await b.find('Client', 'c1')).toEqual({ client_id: 'c1', redirect_uris: ['https://host.example/cb'] });
    expect(await b.find('Client', 'other')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await b.find('Interaction', 'i1')).toBeUndefined();
    expect(await b.find('Client', 'c1')).toBeDefined();
  });

  it('finds a session by its uid, and forgets what is destroyed', async () => {
    const [a, b] = await make();
    await a.upsert('Session', 's1', { uid: 'u1', accountId: 'ada' }, 60);
    expect(await b.findByUid('Session', 'u1')).toEqual({ uid: 'u1', accountId: 'ada' });
    expect(await b.findByUid('Session', 'u2')).toBeUndefined();
    await b.destroy('Session', 's1');
    expect(await a.find('Session', 's1')).toBeUndefined();
  });

  it('marks a code consumed, once, keeping the rest of it', async () => {
    const [a, b] = await make();
    await a.upsert('AuthorizationCode', 'code1', { grantId: 'g1', accountId: 'ada' }, 60);
    await b.consume('AuthorizationCode', 'code1');
    const consumed = await a.find('AuthorizationCode', 'code1');
    expect(consumed).toMatchObject({ grantId: 'g1', accountId: 'ada' });
    expect(typeof consumed!['consumed']).toBe('number');
  });

  it("revokes a grant's tokens and codes together, and no other grant's", async () => {
    const [a, b] = await make();
    await a.upsert('AccessToken', 'at1', { grantId: 'g1' }, 60);
    await a.upsert('RefreshToken', 'rt1', { grantId: 'g1' }, 60);
    await a.upsert('AccessToken', 'at2', { grantId: 'g2' }, 60);
    await b.revokeByGrantId('AccessToken', 'g1');
    await b.revokeByGrantId('RefreshToken', 'g1');
    expect(await a.find('AccessToken', 'at1')).toBeUndefined();
    expect(await a.find('RefreshToken', 'rt1')).toBeUndefined();
    expect(await a.find('AccessToken', 'at2')).toEqual({ grantId: 'g2' });
  });
});

it('the in-memory store keeps at most maxRecords records, forgetting the oldest write first', async () => {
  const store = new InMemoryAuthorizationStore(2);
  await store.upsert('Client', 'a', { n: 1 });
  await store.upsert('Client', 'b', { n: 2 });
  await store.upsert('Client', 'c', { n: 3 });
  expect(await store.find('Client', 'a')).toBeUndefined();
  expect(await store.find('Client', 'b')).toEqual({ n: 2 });
  expect(await store.find('Client', 'c')).toEqual({ n: 3 });
});
