import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import { McpModule, McpProgressReporter, McpTool } from '../../src/index.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { AppHeaderPrincipalSource } from '../mrtr/principal.fixtures.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { call, pollUntil, result } from './tasks-wire.js';

// A task handler reporting progress faster than a shared store writes: every report becomes the
// task's statusMessage on Redis (a compare-and-set per write). The newest report must win, and the
// task's final update must still land.

const REPORTS = 300;

@Injectable()
class Gate {
  open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.open = resolve));
}

@Injectable()
class BurstTools {
  constructor(
    private readonly progress: McpProgressReporter,
    private readonly gate: Gate,
  ) {}

  @McpTool({ name: 'burst', description: 'Reports progress in a burst, then waits', taskSupport: 'required' })
  async burst(): Promise<string> {
    for (let i = 1; i <= REPORTS; i++) this.progress.report(i, REPORTS);
    await this.gate.opened;
    return 'burst done';
  }
}

function burstModule(redis: { url: string; keyPrefix: string }): DynamicModule {
  @Module({
    imports: [
      McpRedisModule.forRoot({ connection: redis.url, keyPrefix: redis.keyPrefix }),
      McpModule.forRoot({
        name: 'task-progress',
        version: '1.0.0',
        mrtr: { secrets: ['task-progress-secret-0123456789abcdef0123456789'] },
        principalSource: AppHeaderPrincipalSource,
        tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
      }),
    ],
    providers: [Gate, BurstTools],
  })
  class BurstModule {}
  return { module: BurstModule };
}

describe.each(ADAPTERS)('task progress on the Redis task store, on %s', (adapter) => {
  const logger = new CapturingLogger();
  let redis: RedisServer;
  let server: RunningApp;
  beforeAll(async () => {
    redis = await startRedis();
    server = await startMrtrApp(burstModule({ url: redis.url, keyPrefix: `progress-${adapter}:` }), adapter, {
      logger,
    });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  it(`keeps the newest of ${REPORTS} reports sent in a burst as the statusMessage, then completes`, async () => {
    const created = result(await call(server.url, 'tools/call', { name: 'burst' }));
    const last = `Progress ${REPORTS} of ${REPORTS}`;
    await pollUntil(server.url, created.taskId, (t) => t.statusMessage === last);
    server.app.get(Gate).open();
    const done = await pollUntil(server.url, created.taskId, (t) => t.status !== 'working');
    // Finished, it says so (issue 25): the last progress report no longer stands as its status.
    expect(done).toMatchObject({ status: 'completed', statusMessage: 'Completed' });
    expect(done.result.content).toEqual([{ type: 'text', text: 'burst done' }]);
    expect(logger.warnings.filter((line) => line.includes('progress'))).toEqual([]);
    expect(logger.errors).toEqual([]);
  });
});
