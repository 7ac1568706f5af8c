// The sample's terminus /health route: ready with MCP_STATE_SECRETS, not ready (503) without.
import { Logger } from '@nestjs/common';
import { AppModule } from '../../sample/app.module.js';
import { send } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';

const SECRET = 'sample-health-secret-of-at-least-32-characters';

async function health(server: RunningApp) {
  const r = await send(server.url.replace(/\/mcp$/, '/health'), 'GET', undefined, { accept: 'application/json' });
  return { status: r.status, body: r.json };
}

describe.each(ADAPTERS)("the sample's /health on %s", (adapter) => {
  const saved = process.env['MCP_STATE_SECRETS'];
  let server: RunningApp | undefined;
  beforeAll(() => Logger.overrideLogger(false));
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (saved === undefined) delete process.env['MCP_STATE_SECRETS'];
    else process.env['MCP_STATE_SECRETS'] = saved;
  });

  it('answers 200 with the MCP server up when MCP_STATE_SECRETS is set', async () => {
    process.env['MCP_STATE_SECRETS'] = SECRET;
    server = await startApp(AppModule, adapter);
    const { status, body } = await health(server);
    expect(status).toBe(200);
    const { servers } = body.details.mcp;
    expect(Object.keys(servers)).toEqual(['/mcp', '/mcp/staff']);
    expect(servers['/mcp']).toMatchObject({
      status: 'up',
      server: 'bistro',
      version: '1.0.0',
      eras: ['modern', 'legacy'],
      keyRing: 'configured',
    });
    expect(servers['/mcp'].tools).toBeGreaterThan(0);
    expect(servers['/mcp'].resources).toBeGreaterThan(0);
    expect(servers['/mcp/staff']).toMatchObject({ status: 'up', server: 'bistro-staff', keyRing: 'configured' });
    expect(servers['/mcp/staff'].tools).toBeGreaterThan(0);
  });

  it('answers 503 naming the missing key ring without it', async () => {
    delete process.env['MCP_STATE_SECRETS'];
    server = await startApp(AppModule, adapter);
    const { status, body } = await health(server);
    expect(status).toBe(503);
    expect(body.error.mcp.reason).toContain('/mcp: no key ring configured');
    expect(body.error.mcp.reason).toContain('/mcp/staff: no key ring configured');
  });
});
