import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpTool } from '../../src/index.js';
import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { ADAPTERS, startApp } from '../support/start-app.js';
import { JsonLinesAuditSink } from './json-lines.audit-sink.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

@Injectable()
class EchoTools {
  @McpTool({ name: 'echo', description: 'Echoes' })
  echo(): string {
    return 'echo';
  }
}

describe('the JSON-lines audit sink of docs/observability.md', () => {
  it('is the code block of "Audit events", exactly (but for the import path)', () => {
    const readme = readFileSync(`${ROOT}docs/observability.md`, 'utf8');
    const start = readme.indexOf('## Audit events');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 3));
    const block = /```ts\n(\/\/ json-lines\.audit-sink\.ts\n[\s\S]*?)```/.exec(section)?.[1];
    const file = readFileSync(`${ROOT}test/readme/json-lines.audit-sink.ts`, 'utf8');
    expect(block?.replace("from '@mocapi/nestjs';", "from '../../src/index.js';")).toBe(file);
  });

  it.each(ADAPTERS)('writes one JSON line per request (%s)', async (adapter) => {
    const out = new PassThrough();
    const lines: string[] = [];
    out.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
    @Module({
      imports: [McpModule.forRoot({ name: 'audit', version: '1.0.0', auditSink: new JsonLinesAuditSink(out) })],
      providers: [EchoTools],
    })
    class AuditModule {}
    const server = await startApp(AuditModule, adapter);
    try {
      const body = {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'echo', arguments: {}, _meta: envelope() },
      };
      expect((await post(server.url, body, mcpHeaders('tools/call', 'echo'))).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
        expect.objectContaining({
          method: 'tools/call',
          target: 'echo',
          id: 9,
          era: 'modern',
          principal: null,
          outcome: { kind: 'complete' },
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          durationMs: expect.any(Number),
        }),
      ]);
    } finally {
      await server.close();
    }
  });
});
