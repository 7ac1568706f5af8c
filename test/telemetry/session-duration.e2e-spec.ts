import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Attributes } from '@opentelemetry/api';
import { McpStdioTransport } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { legacyModule } from '../legacy/legacy.fixtures.js';
import { LEGACY_VERSION, LegacyWire } from '../legacy/legacy-wire.js';
import { ADAPTERS, startApp } from '../support/start-app.js';
import { installOtelSdk } from './otel-sdk.js';

const { histogram } = installOtelSdk();

@Module({ imports: [legacyModule(), McpOpenTelemetryModule.forRoot()] })
class SessionAppModule {}

const SESSION_METRIC = 'mcp.server.session.duration';

/** Count and sum (seconds) of the session histogram's point with exactly these attributes. */
async function sessions(attributes: Attributes): Promise<{ count: number; sum: number }> {
  const { points } = await histogram(SESSION_METRIC);
  const point = points.find((p) => JSON.stringify(p.attributes) === JSON.stringify(attributes));
  return { count: point?.value.count ?? 0, sum: point?.value.sum ?? 0 };
}

const HTTP_SESSION = { 'mcp.protocol.version': LEGACY_VERSION, 'network.transport': 'tcp' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ADAPTERS)('mcp.server.session.duration over HTTP (%s)', (adapter) => {
  it('a DELETEd session counts once, from its issue time; another one counts at shutdown', async () => {
    const server = await startApp(SessionAppModule, adapter);
    let deleted: { count: number; sum: number };
    try {
      const before = await sessions(HTTP_SESSION);
      const wire = await LegacyWire.open(server.url);
      await sleep(60);
      expect((await wire.request('ping')).status).toBe(200);
      expect((await wire.delete()).status).toBe(200);
      deleted = await sessions(HTTP_SESSION);
      expect(deleted.count).toBe(before.count + 1);
      expect(deleted.sum - before.sum).toBeGreaterThanOrEqual(0.05);
      expect(deleted.sum - before.sum).toBeLessThan(10);
      // A refused request on the ended session does not count it again.
      expect((await wire.request('ping')).status).toBe(404);
      expect((await sessions(HTTP_SESSION)).count).toBe(deleted.count);

      // Held here (it sent a request) and never deleted: it ends when this node shuts down.
      const open = await LegacyWire.open(server.url);
      expect((await open.request('ping')).status).toBe(200);
      expect((await sessions(HTTP_SESSION)).count).toBe(deleted.count);
    } finally {
      await server.close();
    }
    const { unit } = await histogram(SESSION_METRIC);
    expect(unit).toBe('s');
    expect((await sessions(HTTP_SESSION)).count).toBe(deleted.count + 1);
    const { points } = await histogram(SESSION_METRIC);
    expect(points.every((p) => p.attributes['error.type'] === undefined)).toBe(true);
  });
});

describe('mcp.server.session.duration over stdio', () => {
  async function connect() {
    const app = await NestFactory.createApplicationContext(SessionAppModule, { logger: false });
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = McpStdioTransport.fromContext(app).listen({ input, output });
    const params = { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } };
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params })}\n`);
    const [line] = (await once(output, 'data')) as [Buffer];
    expect(JSON.parse(line.toString('utf8')).result.protocolVersion).toBe(LEGACY_VERSION);
    return { app, input, output, connection };
  }

  const STDIO_SESSION = { 'mcp.protocol.version': LEGACY_VERSION, 'network.transport': 'pipe' };

  it('the session ends with the connection', async () => {
    const before = await sessions(STDIO_SESSION);
    const { app, input, connection } = await connect();
    input.end();
    await connection.closed;
    expect((await sessions(STDIO_SESSION)).count).toBe(before.count + 1);
    await app.close();
    expect((await sessions(STDIO_SESSION)).count).toBe(before.count + 1);
  });

  it('a connection that failed ends the session with error.type', async () => {
    const failed = { ...STDIO_SESSION, 'error.type': 'EPIPE' };
    const before = await sessions(failed);
    const { app, output, connection } = await connect();
    output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await connection.closed;
    expect((await sessions(failed)).count).toBe(before.count + 1);
    await app.close();
  });
});
