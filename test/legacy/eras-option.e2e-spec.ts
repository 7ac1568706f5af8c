import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Test } from '@nestjs/testing';
import { McpModule } from '../../src/mcp.module.js';
import { McpStdioTransport } from '../../src/transport/stdio/mcp-stdio-transport.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { rpc, send } from '../support/raw-mcp.js';
import type { RunningApp } from '../support/start-app.js';
import { legacyModule } from './legacy.fixtures.js';
import { initialize } from './legacy-wire.js';

describe("eras: ['modern'] — a modern-only endpoint", () => {
  let server: RunningApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    server = await startMrtrApp(legacyModule({ eras: ['modern'] }), 'fastify', { logger });
  });
  afterAll(() => server.close());

  it('refuses initialize with 400 and -32022 naming the supported versions, and warns once per client name', async () => {
    for (const name of ['cursor', 'cursor', 'vscode']) {
      const r = await initialize(server.url, {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name, version: '1.2.3' },
      });
      expect([r.status, r.json.error.code]).toEqual([400, -32022]);
      expect(r.json.error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-06-18' });
      expect(r.headers['mcp-session-id']).toBeUndefined();
    }
    const warnings = logger.warnings.filter((w) => w.includes('Refused 2025-era client'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('"cursor 1.2.3"');
    expect(warnings[0]).toContain("eras: ['modern', 'legacy']");
  });

  it('the official client on its default settings fails at connect with that error', async () => {
    const client = new Client({ name: 'default-client', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(server.url)))).rejects.toThrow();
  });

  it('answers GET and DELETE with 405 and Allow: POST; claim-less requests with -32022', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await send(server.url, method, undefined, { accept: 'text/event-stream' });
      expect([r.status, r.headers['allow']]).toEqual([405, 'POST']);
    }
    const { post } = await import('../support/raw-mcp.js');
    const claimless = await post(
      server.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { 'content-type': 'application/json', accept: 'application/json' },
    );
    expect([claimless.status, claimless.json.error.code, claimless.json.id]).toEqual([400, -32022, 3]);
  });

  it('still serves 2026-07-28', async () => {
    const r = await rpc(server.url, 'tools/call', { name: 'greet', arguments: {} });
    expect(r.json.result.content[0].text).toBe('Hello!');
  });
});

describe("eras: ['legacy'] — a 2025-era-only endpoint", () => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startMrtrApp(legacyModule({ eras: ['legacy'] }), 'express');
  });
  afterAll(() => server.close());

  it('refuses modern requests with -32022 naming the 2025 versions, and serves initialize', async () => {
    const r = await rpc(server.url, 'tools/list');
    expect([r.status, r.json.error.code]).toEqual([400, -32022]);
    expect(r.json.error.data).toEqual({
      supported: ['2025-11-25', '2025-06-18', '2025-03-26'],
      requested: '2026-07-28',
    });
    const init = await initialize(server.url, { protocolVersion: '2025-11-25', capabilities: {} });
    expect(init.json.result.protocolVersion).toBe('2025-11-25');
  });
});

describe('eras over stdio: the same era router as HTTP', () => {
  async function firstAnswer(eras: ('modern' | 'legacy')[], line: unknown): Promise<Record<string, any>> {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'eras-stdio', version: '1.0.0', http: false, eras })],
    }).compile();
    await moduleRef.init();
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = McpStdioTransport.fromContext(moduleRef).listen({ input, output });
    try {
      input.write(`${JSON.stringify(line)}\n`);
      const [chunk] = (await once(output, 'data')) as [Buffer];
      return JSON.parse(chunk.toString('utf8').split('\n')[0]!) as Record<string, any>;
    } finally {
      await connection.close();
      await moduleRef.close();
    }
  }

  it("eras: ['legacy'] refuses a 2026-07-28 request with -32022 naming the 2025 versions", async () => {
    const answer = await firstAnswer(['legacy'], {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    expect(answer).toMatchObject({ id: 7, error: { code: -32022 } });
    expect(answer['error'].data).toEqual({
      supported: ['2025-11-25', '2025-06-18', '2025-03-26'],
      requested: '2026-07-28',
    });
  });

  it("eras: ['modern'] refuses initialize with -32022 naming 2026-07-28", async () => {
    const answer = await firstAnswer(['modern'], {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    expect(answer).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2026-07-28'] } } });
  });
});
