import { killServers, spawnServer } from '../stdio/stdio-process.js';
import { envelope } from '../support/raw-mcp.js';
import { TASKS } from './tasks-wire.js';

const STARTUP_MS = 60_000;
const TEST_MS = 90_000;

const line = (id: number, method: string, params: Record<string, unknown>) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(TASKS) } })}\n`;

describe('tasks over stdio (a real server process, raw newline-delimited JSON-RPC)', () => {
  afterEach(() => killServers());

  it(
    'answers tools/call with a task, then tasks/get with its result (no routing headers on stdio)',
    async () => {
      const server = spawnServer();
      await server.waitForStderr('listening on stdio', STARTUP_MS);
      server.child.stdin.write(line(1, 'tools/call', { name: 'tally' }));
      const [created] = (await server.waitForLines(1)).map((l) => JSON.parse(l));
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.result.taskId as string;

      let task: any;
      for (let id = 2; id < 200; id++) {
        server.child.stdin.write(line(id, 'tasks/get', { taskId }));
        const lines = await server.waitForLines(id);
        task = JSON.parse(lines[id - 1]!).result;
        if (task.status !== 'working') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(task).toMatchObject({ taskId, status: 'completed', result: { content: [{ text: 'one, two, three' }] } });
      server.child.stdin.end();
      expect(await server.exited).toEqual({ code: 0, signal: null });
    },
    TEST_MS,
  );
});
