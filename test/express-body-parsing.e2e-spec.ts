import { Injectable, Module, type INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { McpModule, McpTool } from '../src/index.js';
import { mcpHeaders, envelope, post } from './support/raw-mcp.js';
import { startApp, type RunningApp } from './support/start-app.js';

@Injectable()
class SizeTools {
  @McpTool({ name: 'size', description: 'Counts the characters of its text' })
  size(input: { text?: string }): string {
    return String(input.text?.length ?? 0);
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'sizes', version: '1.0.0', maxBodyBytes: 1_000_000 })],
  providers: [SizeTools],
})
class SizeModule {}

const start = (
  configure: (app: NestExpressApplication) => void,
  options: { bodyParser?: boolean } = {},
): Promise<RunningApp> => startApp<NestExpressApplication>(SizeModule, 'express', { configure, ...options });

const call = (url: string, text: string) =>
  post(
    url,
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'size', arguments: { text }, _meta: envelope() } },
    mcpHeaders('tools/call', 'size'),
  );

describe('body parsing on Express', () => {
  const apps: INestApplication[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it("with Nest's default JSON parser: its 100 kB limit, answered as JSON-RPC; CORS middleware applies", async () => {
    const { app, url } = await start((a) => a.enableCors({ origin: 'http://localhost:5173' }));
    apps.push(app);
    const small = await call(url, 'x'.repeat(50_000));
    expect(small.json.result.content[0].text).toBe('50000');
    expect(small.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    const big = await call(url, 'x'.repeat(200_000));
    expect([big.status, big.json.error.code, big.json.error.message]).toEqual([
      413,
      -32600,
      'Request body too large: the limit is 102400 bytes',
    ]);
  });

  it('with a raised parser limit (app.useBodyParser), larger bodies pass', async () => {
    const { app, url } = await start((a) => a.useBodyParser('json', { limit: '4mb' }));
    apps.push(app);
    expect((await call(url, 'x'.repeat(200_000))).json.result.content[0].text).toBe('200000');
  });

  it('with bodyParser: false, the module reads bodies itself up to maxBodyBytes', async () => {
    const { app, url } = await start(() => undefined, { bodyParser: false });
    apps.push(app);
    expect((await call(url, 'x'.repeat(500_000))).json.result.content[0].text).toBe('500000');
    const tooBig = await call(url, 'x'.repeat(1_100_000));
    expect([tooBig.status, tooBig.json.error.message]).toEqual([
      413,
      'Request body too large: the limit is 1000000 bytes',
    ]);
  });
});
