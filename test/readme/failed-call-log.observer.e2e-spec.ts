import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import { Module } from '@nestjs/common';
import { McpModule } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { startApp } from '../support/start-app.js';
import { FailedCallLog } from './failed-call-log.observer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the observer of docs/observability.md', () => {
  it('is the code block of "Your own observers", exactly (but for the import path)', () => {
    const readme = readFileSync(`${ROOT}docs/observability.md`, 'utf8');
    const block = /```ts\n(\/\/ failed-call-log\.observer\.ts\n[\s\S]*?)```/.exec(readme)?.[1];
    const file = readFileSync(`${ROOT}test/readme/failed-call-log.observer.ts`, 'utf8');
    expect(block?.replace("from '@mocapi/nestjs';", "from '../../src/index.js';")).toBe(file);
  });

  it('runs beside OpenTelemetry and warns once per failed call', async () => {
    @Module({
      imports: [McpModule.forRoot({ name: 'observed', version: '1.0.0' }), McpOpenTelemetryModule.forRoot()],
      providers: [FailedCallLog],
    })
    class ObservedModule {}
    const server = await startApp(ObservedModule, 'fastify');
    try {
      const warn = jest.spyOn(server.app.get(FailedCallLog).logger, 'warn').mockImplementation(() => undefined);
      const params = { name: 'nope', arguments: {}, _meta: envelope() };
      const r = await post(
        server.url,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
        mcpHeaders('tools/call', 'nope'),
      );
      // No tool is registered, so tools/call itself is unknown here.
      expect(r.json.error.code).toBe(-32601);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith('tools/call nope: -32601');
    } finally {
      await server.close();
    }
  });
});
