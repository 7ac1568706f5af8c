import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpRedisModule } from '../../src/redis/index.js';
import { McpSkillCatalog } from '../../src/skills/index.js';
import { connectOfficialClient } from '../support/official-client.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { openListen } from '../support/sse-stream.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { skillsAppModule, skillsFolder, WALK_IN_FILES } from './skills-app.fixture.js';

const NEW_FLOOR = '# Floor plan\n\nThe terrace is open: tables 13-16.\n';

/** Two nodes sharing one redis-server's event bus, each reading the same skill folder. */
describe('skills on two nodes sharing the event bus (Redis)', () => {
  let redis: RedisServer;
  let folder: Awaited<ReturnType<typeof skillsFolder>>;
  let nodes: RunningApp[];
  beforeAll(async () => {
    redis = await startRedis();
    folder = await skillsFolder({ 'seat-a-walk-in': WALK_IN_FILES });
    const module = () =>
      skillsAppModule({
        skills: { directories: [folder.root] },
        imports: [McpRedisModule.forRoot({ connection: redis.url, keyPrefix: 'skills-e2e:' })],
      });
    nodes = [await startApp(module(), 'express'), await startApp(module(), 'fastify')];
  }, 30_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await redis.stop();
    await folder.remove();
  });

  it('a reload on one node reaches the listeners of the other; each node then serves what it read', async () => {
    const [a, b] = nodes as [RunningApp, RunningApp];
    const stream = await openListen(b.url, 'on-b', { resourcesListChanged: true });
    try {
      await stream.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
      await writeFile(join(folder.root, 'seat-a-walk-in/references/floor.md'), NEW_FLOOR);
      await a.app.get(McpSkillCatalog).reload();
      await stream.waitFor((m) => m.method === 'notifications/resources/list_changed');

      // Node b has not reloaded: it still serves, and verifies, what it read at startup.
      const onB = await connectOfficialClient(b.url);
      const onA = await connectOfficialClient(a.url);
      try {
        const [fromA, fromB] = [new SkillsClient(onA), new SkillsClient(onB)];
        const {
          skills: [entryA],
        } = await fromA.list();
        const {
          skills: [entryB],
        } = await fromB.list();
        expect(entryA).not.toEqual(entryB);
        expect((await fromA.read(entryA!, 'references/floor.md')).text).toBe(NEW_FLOOR);
        expect((await fromB.read(entryB!, 'references/floor.md')).text).toBe(WALK_IN_FILES['references/floor.md']);
        await b.app.get(McpSkillCatalog).reload();
        expect((await fromB.list()).skills).toEqual([entryA]);
      } finally {
        await onA.close();
        await onB.close();
      }
    } finally {
      stream.close();
    }
  });
});
