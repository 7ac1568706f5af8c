import { Module } from '@nestjs/common';
import { LegacySessions } from '../../src/legacy/legacy-sessions.js';
import { McpModule } from '../../src/index.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { HeaderPrincipalSource, LegacyProbe, LegacyTools, SECRET } from '../legacy/legacy.fixtures.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { startRedis, type RedisServer } from '../support/redis-server.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { sessionWithState, stateIn } from './legacy-session.probe.js';

/**
 * Honest eviction with a backplane that keeps the sessions' state (Redis): a node that drops an idle
 * state to stay within legacy.maxSessions reloads it on the session's next request, so the session
 * goes on with its subscriptions; a caller over limits.maxSessionsPerCaller still loses its own
 * oldest session, on every node (404).
 */
describe.each(ADAPTERS)('2025-era eviction with the Redis backplane, on %s', (adapter) => {
  let redis: RedisServer;
  let server: RunningApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    redis = await startRedis();
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'legacy-bounds-redis',
          version: '1.0.0',
          mrtr: { secrets: [SECRET] },
          principalSource: new HeaderPrincipalSource(),
          legacy: { maxSessions: 3 },
          limits: { maxSessionsPerCaller: 2, maxSubscriptionsPerSession: 1 },
        }),
        McpRedisModule.forRoot({ connection: redis.url, keyPrefix: `bounds-${adapter}:` }),
      ],
      providers: [LegacyTools, LegacyProbe],
    })
    class RedisBoundsModule {}
    server = await startMrtrApp(RedisBoundsModule, adapter, { logger });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });
  afterEach(() => expect(logger.errors).toEqual([]));

  it('states dropped to make room are reloaded from Redis: every session keeps its subscriptions', async () => {
    const sessions = [];
    for (let i = 0; i < 6; i++) sessions.push(await sessionWithState(server.url, `caller-${i}`));
    expect(server.app.get(LegacySessions).size).toBeLessThanOrEqual(3);
    // Six sessions, at most three states here: the others come back from Redis, not blank.
    for (const wire of sessions) expect(await stateIn(wire)).toBe('kept');
  });

  it('a caller over limits.maxSessionsPerCaller loses its own oldest session (404), the others go on', async () => {
    const own = [];
    for (let i = 0; i < 3; i++) own.push(await sessionWithState(server.url, 'greedy'));
    const seen = [];
    for (const wire of own) seen.push(await stateIn(wire));
    expect(seen).toEqual(['gone', 'kept', 'kept']);
  });
});
