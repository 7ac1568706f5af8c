import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpTool, type McpExchange } from '../../src/index.js';
import { ADAPTERS, type AdapterKind, type RunningApp, startApp } from '../support/start-app.js';

// The official tasks client (@modelcontextprotocol/ext-tasks 0.2.2, on @modelcontextprotocol/client
// pinned to 2026-07-28) against our server, run as a plain Node process (clients/ext-tasks-client.mjs):
// it validates a finished task's result as a 2026-07-28 CallToolResult, resultType required.

const CLIENT = fileURLToPath(new URL('./clients/ext-tasks-client.mjs', import.meta.url));
const run = promisify(execFile);

async function official(url: string, scenario: 'settle' | 'cancel'): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [CLIENT, url, scenario], { timeout: 20_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

@Injectable()
class ReportTools {
  @McpTool({ name: 'quick_report', description: 'Builds a report as a task', taskSupport: 'required' })
  async quick(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 'report ready';
  }

  @McpTool({ name: 'endless', description: 'Runs until cancelled', taskSupport: 'required' })
  endless(_input: unknown, exchange: McpExchange): Promise<string> {
    return new Promise((_resolve, reject) => {
      exchange.signal.addEventListener('abort', () => reject(exchange.signal.reason as Error), { once: true });
    });
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'tasks-official', version: '1.0.0', tasks: { pollIntervalMs: 50 } })],
  providers: [ReportTools],
})
class ReportsModule {}

describe.each(ADAPTERS)('the official tasks client (ext-tasks 0.2.2), on %s', (adapter: AdapterKind) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(ReportsModule, adapter);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a task and settles it with a result that decodes', async () => {
    expect(await official(server.url, 'settle')).toEqual({
      status: 'completed',
      result: { resultType: 'complete', content: [{ type: 'text', text: 'report ready' }] },
    });
  });

  it('cancels a running task, and the outcome says cancelled', async () => {
    expect(await official(server.url, 'cancel')).toEqual({ status: 'cancelled' });
  });
});
