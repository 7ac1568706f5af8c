import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { type McpAuditEvent, McpAuditSink, McpStdioTransport } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { HeaderPrincipalSource, legacyModule } from '../legacy/legacy.fixtures.js';
import { LEGACY_VERSION, LegacyWire } from '../legacy/legacy-wire.js';
import { envelope, mcpHeaders, post, type RawResponse, send } from '../support/raw-mcp.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { installOtelSdk } from './otel-sdk.js';

const { spans, histogram } = installOtelSdk();

class CollectingSink extends McpAuditSink {
  readonly events: McpAuditEvent[] = [];
  record(event: McpAuditEvent): void {
    this.events.push(event);
  }
}

const sink = new CollectingSink();
const MAX_BODY = 4096;

@Module({
  imports: [
    legacyModule({ principalSource: HeaderPrincipalSource, auditSink: sink, maxBodyBytes: MAX_BODY }),
    McpOpenTelemetryModule.forRoot(),
  ],
})
class RefusalAppModule {}

/** Sends one request and hands back its answer with the audit events and SERVER spans it produced. */
async function observed(send: () => Promise<RawResponse>) {
  const events = sink.events.length;
  const finished = spans.getFinishedSpans().length;
  const response = await send();
  // Refusals are recorded as the answer is written: give the observers' microtasks a turn.
  await new Promise((resolve) => setImmediate(resolve));
  const serverSpans = spans
    .getFinishedSpans()
    .slice(finished)
    .filter((s) => s.kind === 1);
  return { response, events: sink.events.slice(events), spans: serverSpans as ReadableSpan[] };
}

const MODERN_HEADERS = mcpHeaders('tools/call', 'echo');

describe.each(ADAPTERS)('requests refused before dispatch (%s)', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => (server = await startApp(RefusalAppModule, adapter)));
  afterAll(() => server.close());

  it.each([
    ['malformed JSON', () => send(server.url, 'POST', '{"jsonrpc":', MODERN_HEADERS), 400, -32700],
    ['an oversized body', () => send(server.url, 'POST', `"${'x'.repeat(MAX_BODY * 2)}"`, MODERN_HEADERS), 413, -32600],
    [
      'a foreign Origin',
      () => post(server.url, {}, { ...MODERN_HEADERS, origin: 'https://evil.example' }),
      403,
      -32600,
    ],
    [
      'a wrong Content-Type',
      () => post(server.url, {}, { ...MODERN_HEADERS, 'content-type': 'text/plain' }),
      415,
      -32600,
    ],
    ['a batch', () => post(server.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], MODERN_HEADERS), 400, -32600],
  ])(
    '%s: one audit event (no principal, no method) and one span with error.type',
    async (_name, request, status, code) => {
      const { response, events, spans: recorded } = await observed(request);
      expect(response.status).toBe(status);
      expect(response.json.error.code).toBe(code);
      expect(events).toEqual([
        expect.objectContaining({
          transport: 'http',
          era: 'modern',
          method: '',
          id: null,
          principal: null,
          outcome: { kind: 'protocol_error', code, message: response.json.error.message },
          refused: { httpStatus: status },
        }),
      ]);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]!.attributes).toMatchObject({
        'mcp.method.name': '_OTHER',
        'error.type': String(code),
        'rpc.response.status_code': String(code),
        'http.response.status_code': status,
      });
      expect(recorded[0]!.status).toEqual({ code: 2, message: response.json.error.message });
    },
  );

  it('2025-era session refusals (unknown id, unsupported version) name the method and the era', async () => {
    const headers = (extra: Record<string, string>) => ({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...extra,
    });
    const body = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: {} } };
    const unknown = await observed(() =>
      post(server.url, body, headers({ 'mcp-protocol-version': LEGACY_VERSION, 'mcp-session-id': 'forged' })),
    );
    expect(unknown.response.status).toBe(404);
    expect(unknown.events).toEqual([
      expect.objectContaining({
        era: 'legacy',
        method: 'tools/call',
        principal: null,
        outcome: { kind: 'protocol_error', code: -32600, message: unknown.response.json.error.message },
        refused: { httpStatus: 404 },
      }),
    ]);
    expect(unknown.spans[0]!.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'error.type': '-32600' });

    const wire = await LegacyWire.open(server.url);
    const version = await observed(() => wire.request('ping', {}, { 'mcp-protocol-version': '1999-01-01' }));
    expect(version.response.status).toBe(400);
    expect(version.events).toEqual([
      expect.objectContaining({ era: 'legacy', method: 'ping', refused: { httpStatus: 400 } }),
    ]);
    await wire.delete();
  });

  it('a request that reaches dispatch is recorded once, and not as a refusal (the depth limit included)', async () => {
    const deep = { a: {} as Record<string, unknown> };
    let cursor = deep.a;
    for (let i = 0; i < 40; i++) cursor = cursor['a'] = {};
    const params = { name: 'echo', arguments: deep, _meta: envelope() };
    const { response, events } = await observed(() =>
      post(server.url, { jsonrpc: '2.0', id: 'deep', method: 'tools/call', params }, MODERN_HEADERS),
    );
    expect(response.json.error.code).toBe(-32602);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: 'deep', method: 'tools/call', outcome: { kind: 'protocol_error' } });
    expect(events[0]!.refused).toBeUndefined();
  });

  it('refusals are points of the duration histogram with error.type', async () => {
    const { points } = await histogram('mcp.server.operation.duration');
    expect(points.map((p) => p.attributes)).toEqual(
      expect.arrayContaining([expect.objectContaining({ 'mcp.method.name': '_OTHER', 'error.type': '-32700' })]),
    );
  });
});

describe('requests refused before dispatch (stdio)', () => {
  it('an unparsable line and an oversized one: one audit event each, transport stdio, no status', async () => {
    const app = await NestFactory.createApplicationContext(RefusalAppModule, { logger: false });
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = McpStdioTransport.fromContext(app).listen({ input, output, maxLineBytes: 64 });
    try {
      const before = sink.events.length;
      input.write('{not json\n');
      await once(output, 'data');
      input.write(`${'x'.repeat(100)}\n`);
      await once(output, 'data');
      expect(sink.events.slice(before)).toEqual([
        expect.objectContaining({
          transport: 'stdio',
          id: null,
          outcome: { kind: 'protocol_error', code: -32700, message: expect.any(String) },
        }),
        expect.objectContaining({
          transport: 'stdio',
          id: null,
          outcome: { kind: 'protocol_error', code: -32600, message: expect.any(String) },
        }),
      ]);
      expect(sink.events.slice(before).every((e) => e.refused !== undefined && e.principal === null)).toBe(true);
    } finally {
      await connection.close();
      await app.close();
    }
  });
});
