import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT, SERVER_ARGS } from '../stdio/stdio-process.js';
import { startForecastApp } from './support/forecast.fixture.js';

// The child transpiles src with SWC and boots Nest.
const TEST_MS = 90_000;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('McpClientModule: a server started as a child process (stdio)', () => {
  it(
    'calls its tools, and stops the child when the application shuts down',
    async () => {
      const { app, forecast } = await startForecastApp({
        stdio: { command: process.execPath, args: SERVER_ARGS, cwd: ROOT, stderr: 'ignore' },
        timeoutMs: 60_000,
      });
      let pid: number | undefined;
      try {
        expect(await forecast.callText('add', { a: 19, b: 23 })).toBe('42');
        const client = await forecast.upstream.client();
        expect(client.getServerVersion()).toMatchObject({ name: 'stdio-e2e' });
        pid = (client.transport as StdioClientTransport).pid ?? undefined;
        expect(pid).toEqual(expect.any(Number));
        expect(alive(pid!)).toBe(true);
      } finally {
        await app.close();
      }
      const deadline = Date.now() + 10_000;
      while (alive(pid!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(alive(pid!)).toBe(false);
    },
    TEST_MS,
  );
});
