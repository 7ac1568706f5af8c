// McpHealthIndicator behind a real terminus /health route: healthy with a key ring, unhealthy with
// a reason without one, and, with McpRedisModule and McpTaskQueueModule on a real redis-server,
// unhealthy while that server is down and healthy again once it is back.
import { Logger } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { McpTaskQueueModule } from '../../src/bullmq/index.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { send } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import { healthApp, SECRET, twoServersHealthApp } from './health.fixtures.js';

const healthUrl = (server: RunningApp) => server.url.replace(/\/mcp$/, '/health');

async function health(server: RunningApp) {
  const r = await send(healthUrl(server), 'GET', undefined, { accept: 'application/json' });
  return { status: r.status, body: r.json };
}

/** Polls /health until `done` holds, for at most 15 s (reconnects are not instant; no speed is asserted). */
async function healthUntil(server: RunningApp, done: (status: number) => boolean) {
  for (let attempt = 0; ; attempt++) {
    const answer = await health(server);
    if (done(answer.status) || attempt >= 150) return answer;
    await delay(100);
  }
}

beforeAll(() => Logger.overrideLogger(false));

describe.each(ADAPTERS)('McpHealthIndicator on %s', (adapter) => {
  const apps: RunningApp[] = [];
  const start = async (module: unknown) => {
    const app = await startApp(module, adapter);
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close().catch(() => undefined);
  });

  it('is up with the details a dashboard shows when a key ring is configured', async () => {
    const server = await start(healthApp({ secrets: [SECRET] }));
    const { status, body } = await health(server);
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'ok',
      info: { mcp: expect.objectContaining({ status: 'up' }) },
      error: {},
      details: { mcp: expect.objectContaining({ status: 'up' }) },
    });
    expect(body.details.mcp).toEqual({
      status: 'up',
      servers: {
        '/mcp': {
          status: 'up',
          server: 'health-e2e',
          version: '1.2.3',
          eras: ['modern', 'legacy'],
          keyRing: 'configured',
          tools: 2,
          prompts: 1,
          resources: 0,
          resourceTemplates: 0,
        },
      },
    });
  });

  it('is down (503) with a reason when no key ring is configured', async () => {
    const server = await start(healthApp());
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.status).toBe('error');
    expect(body.error.mcp).toMatchObject({
      status: 'down',
      servers: { '/mcp': { status: 'down', keyRing: 'random per-process key', tools: 2 } },
    });
    expect(body.error.mcp.reason).toMatch(
      /^\/mcp: no key ring configured \(McpModule\.forRoot\(\{ mrtr: \{ secrets \} \}\)\)/,
    );
  });

  it('names every server of the application by its path, with what each serves', async () => {
    const server = await start(twoServersHealthApp({ staffSecrets: [SECRET] }));
    const { status, body } = await health(server);
    expect(status).toBe(200);
    expect(body.details.mcp).toEqual({
      status: 'up',
      servers: {
        '/mcp': {
          status: 'up',
          server: 'health-e2e',
          version: '1.2.3',
          eras: ['modern', 'legacy'],
          keyRing: 'configured',
          tools: 2,
          prompts: 1,
          resources: 0,
          resourceTemplates: 0,
        },
        '/mcp/staff': {
          status: 'up',
          server: 'health-e2e-staff',
          version: '2.0.0',
          eras: ['modern'],
          keyRing: 'configured',
          tools: 1,
          prompts: 0,
          resources: 0,
          resourceTemplates: 0,
        },
      },
    });
  });

  it('is down (503) when one of the servers is, naming that server by its path', async () => {
    const server = await start(twoServersHealthApp());
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.error.mcp.servers['/mcp']).toMatchObject({ status: 'up', keyRing: 'configured' });
    expect(body.error.mcp.servers['/mcp/staff']).toMatchObject({ status: 'down', keyRing: 'random per-process key' });
    expect(body.error.mcp.reason).toBe(
      '/mcp/staff: no key ring configured (McpModule.forRoot({ mrtr: { secrets } })): tokens sealed here open on no other node and not after a restart',
    );
  });
});

describe.each(ADAPTERS)('McpHealthIndicator with Redis and the task queue on %s', (adapter) => {
  let redis: RedisServer;
  let server: RunningApp;

  beforeAll(async () => {
    redis = await startRedis();
    server = await startApp(
      healthApp({
        secrets: [SECRET],
        imports: [
          McpRedisModule.forRoot({ connection: redis.url, keyPrefix: `health-${adapter}:` }),
          McpTaskQueueModule.forRoot({ connection: redis.url, queueName: `health-${adapter}` }),
        ],
      }),
      adapter,
    );
  });
  afterAll(async () => {
    await server.close().catch(() => undefined);
    await redis.stop();
  });

  it('is up while Redis answers, down with a reason while it is stopped, and up again when it is back', async () => {
    const before = await health(server);
    expect(before.status).toBe(200);
    expect(before.body.details.mcp).toMatchObject({ status: 'up', redis: 'up', taskQueue: 'up' });

    await redis.stop();
    const down = await healthUntil(server, (status) => status === 503);
    expect(down.status).toBe(503);
    expect(down.body.error.mcp).toMatchObject({
      status: 'down',
      redis: 'down',
      taskQueue: 'down',
      servers: { '/mcp': { status: 'up', keyRing: 'configured' } },
    });
    expect(down.body.error.mcp.reason).toContain('redis is unreachable: ');
    expect(down.body.error.mcp.reason).toContain('taskQueue is unreachable: ');

    await redis.restart();
    const back = await healthUntil(server, (status) => status === 200);
    expect(back.status).toBe(200);
    expect(back.body.details.mcp).toMatchObject({ status: 'up', redis: 'up', taskQueue: 'up' });
  });

  it('is down while Redis is frozen (connections open, nothing answered), within the probe bound', async () => {
    redis.pause();
    try {
      const down = await healthUntil(server, (status) => status === 503);
      expect(down.status).toBe(503);
      expect(down.body.error.mcp).toMatchObject({ redis: 'down', taskQueue: 'down' });
      expect(down.body.error.mcp.reason).toBe(
        'redis is unreachable: no answer within 2000 ms; taskQueue is unreachable: no answer within 2000 ms',
      );
    } finally {
      redis.resume();
    }
    const back = await healthUntil(server, (status) => status === 200);
    expect(back.status).toBe(200);
  });
});
