import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ElicitationContext, type McpAuditEvent, McpAuditSink, McpStdioTransport, McpTool } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { HeaderPrincipalSource, legacyModule } from '../legacy/legacy.fixtures.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { envelope, rpc } from '../support/raw-mcp.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { installOtelSdk } from './otel-sdk.js';

const { spans, histogram } = installOtelSdk();

class CollectingSink extends McpAuditSink {
  readonly events: McpAuditEvent[] = [];
  record(event: McpAuditEvent): void {
    this.events.push(event);
  }
}

@Injectable()
class TracedTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'traced', description: 'Opens a span of its own' })
  traced(): string {
    trace.getTracer('user').startActiveSpan('user work', (span) => span.end());
    return 'done';
  }

  @McpTool({ name: 'two_rounds', description: 'Asks one question' })
  async twoRounds(): Promise<string> {
    const answer = await this.elicitation.elicit('Colour?', (s) => s.string('colour'));
    return answer.action === 'accept' ? `colour ${answer.content.colour}` : answer.action;
  }
}

const sink = new CollectingSink();

@Module({
  imports: [
    legacyModule({ principalSource: HeaderPrincipalSource, auditSink: sink }),
    McpOpenTelemetryModule.forRoot({ instrumentationVersion: 'test' }),
  ],
  providers: [TracedTools],
})
class TelemetryAppModule {}

function call(url: string, name: string, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  const capabilities = { elicitation: {} };
  return rpc(
    url,
    'tools/call',
    { name, arguments: {}, ...extra },
    { capabilities, meta, headers: { 'x-user': 'alice' } },
  );
}

const spanOf = (id: number | string): ReadableSpan =>
  spans.getFinishedSpans().find((s) => s.attributes['jsonrpc.request.id'] === String(id) && s.kind === 1)!;
const eventOf = (id: number | string): McpAuditEvent => sink.events.find((e) => e.id === id)!;

describe.each(ADAPTERS)('OpenTelemetry and audit events (%s)', (adapter) => {
  let server: RunningApp;

  beforeAll(async () => {
    server = await startApp(TelemetryAppModule, adapter);
  });
  afterAll(() => server.close());

  it('a plain call: one SERVER span with the MCP attributes, the user span nested, an audit event', async () => {
    const r = await call(server.url, 'traced');
    expect(r.status).toBe(200);
    const span = spanOf(r.id);
    expect(span.name).toBe('tools/call traced');
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'traced',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'mcp.outcome': 'complete',
      'network.transport': 'tcp',
    });
    expect(span.attributes['error.type']).toBeUndefined();
    const user = spans
      .getFinishedSpans()
      .find((s) => s.name === 'user work' && s.spanContext().traceId === span.spanContext().traceId);
    expect(user?.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(eventOf(r.id)).toMatchObject({
      transport: 'http',
      era: 'modern',
      method: 'tools/call',
      target: 'traced',
      principal: 'alice',
      protocolVersion: '2026-07-28',
      outcome: { kind: 'complete' },
    });
    expect(eventOf(r.id).flowId).toBeUndefined();
    expect(eventOf(r.id).durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a two-round modern flow: input_required with one request, then complete, one flow id', async () => {
    const first = await call(server.url, 'two_rounds');
    expect(first.json.result.resultType).toBe('input_required');
    const [key] = Object.keys(first.json.result.inputRequests);
    const second = await call(server.url, 'two_rounds', {
      requestState: first.json.result.requestState,
      inputResponses: { [key!]: { action: 'accept', content: { colour: 'blue' } } },
    });
    expect(second.json.result.content[0].text).toBe('colour blue');
    expect(spanOf(first.id).attributes).toMatchObject({ 'mcp.outcome': 'input_required', 'mcp.input_requests': 1 });
    expect(spanOf(second.id).attributes).toMatchObject({ 'mcp.outcome': 'complete' });
    const [a, b] = [eventOf(first.id), eventOf(second.id)];
    expect(a.outcome).toEqual({ kind: 'input_required', inputRequests: 1 });
    expect(b.outcome).toEqual({ kind: 'complete' });
    expect(a.flowId).toEqual(expect.any(String));
    expect(b.flowId).toBe(a.flowId);
    expect(spanOf(second.id).attributes['mcp.flow.id']).toBe(a.flowId);
  });

  it('a rejected requestState: the reason on the span and in the audit event', async () => {
    const first = await call(server.url, 'two_rounds');
    const retry = await call(server.url, 'two_rounds', {
      requestState: first.json.result.requestState,
      arguments: { other: 1 },
    });
    expect(retry.json.error.data).toEqual({ reason: 'arguments_mismatch' });
    expect(spanOf(retry.id).attributes).toMatchObject({
      'mcp.outcome': 'rejected_request_state',
      'mcp.request_state.reason': 'arguments_mismatch',
      'error.type': '-32602',
    });
    expect(spanOf(retry.id).status.code).toBe(2);
    expect(eventOf(retry.id)).toMatchObject({
      principal: 'alice',
      outcome: { kind: 'rejected_request_state', reason: 'arguments_mismatch' },
    });
  });

  it('an unknown tool: a protocol error with its code', async () => {
    const r = await call(server.url, 'nope');
    expect(spanOf(r.id).attributes).toMatchObject({ 'mcp.outcome': 'protocol_error', 'error.type': '-32602' });
    expect(eventOf(r.id).outcome).toEqual({ kind: 'protocol_error', code: -32602, message: r.json.error.message });
  });

  it('a traceparent in _meta becomes the parent of the span', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const r = await call(server.url, 'traced', {}, { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'k=v' });
    const span = spanOf(r.id);
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parentId);
  });

  it('a 2025-era pushed flow: one span with a CLIENT span per pushed request, the session id, audit events', async () => {
    const wire = await LegacyWire.open(server.url, { elicitation: {} }, { 'x-user': 'bob' });
    const stream = await wire.stream('tools/call', { name: 'ask_name', arguments: {} }, `legacy-${adapter}`);
    const pushed = await stream.waitFor((m) => m.method === 'elicitation/create');
    await wire.answer(pushed.id, { action: 'accept', content: { name: 'Ada' } });
    await stream.waitFor((m) => m.id === `legacy-${adapter}`);
    await stream.ended;
    const span = spanOf(`legacy-${adapter}`);
    expect(span.name).toBe('tools/call ask_name');
    expect(span.attributes).toMatchObject({
      'mcp.outcome': 'complete',
      'mcp.input_requests': 1,
      'mcp.protocol.version': '2025-11-25',
      'mcp.session.id': expect.any(String),
    });
    expect(span.attributes['mcp.session.id']).not.toBe(wire.sessionId);
    const clientSpans = spans
      .getFinishedSpans()
      .filter((s) => s.kind === 2 && s.parentSpanContext?.spanId === span.spanContext().spanId);
    expect(clientSpans.map((s) => [s.name, s.attributes['mcp.method.name']])).toEqual([
      ['elicitation/create', 'elicitation/create'],
    ]);
    const event = eventOf(`legacy-${adapter}`);
    expect(event).toMatchObject({
      era: 'legacy',
      principal: 'bob',
      target: 'ask_name',
      sessionId: span.attributes['mcp.session.id'],
      outcome: { kind: 'complete' },
    });
    expect(event.flowId).toEqual(expect.any(String));
    expect(sink.events.some((e) => e.method === 'initialize' && e.era === 'legacy' && e.principal === 'bob')).toBe(
      true,
    );
  });

  it('the duration histogram, by method and outcome', async () => {
    const { unit, points: data } = await histogram('mcp.server.operation.duration');
    expect(unit).toBe('s');
    const points = data.map((p) => p.attributes);
    expect(points).toEqual(
      expect.arrayContaining([
        // A plain call, both rounds of a modern flow, a 2025-era pushed flow, a rejected requestState.
        expect.objectContaining({
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'traced',
          'mcp.protocol.version': '2026-07-28',
          'mcp.outcome': 'complete',
        }),
        expect.objectContaining({ 'gen_ai.tool.name': 'two_rounds', 'mcp.outcome': 'input_required' }),
        expect.objectContaining({ 'gen_ai.tool.name': 'two_rounds', 'mcp.outcome': 'complete' }),
        expect.objectContaining({
          'gen_ai.tool.name': 'ask_name',
          'mcp.protocol.version': '2025-11-25',
          'mcp.outcome': 'complete',
        }),
        expect.objectContaining({ 'mcp.outcome': 'rejected_request_state', 'error.type': '-32602' }),
      ]),
    );
  });
});

describe('OpenTelemetry and audit events (stdio)', () => {
  it('a plain call over stdio: network.transport pipe, audit transport stdio', async () => {
    const app = await NestFactory.createApplicationContext(TelemetryAppModule, { logger: false });
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = McpStdioTransport.fromContext(app).listen({ input, output });
    try {
      const body = {
        jsonrpc: '2.0',
        id: 'stdio-1',
        method: 'tools/call',
        params: { name: 'traced', arguments: {}, _meta: envelope() },
      };
      input.write(`${JSON.stringify(body)}\n`);
      const [line] = (await once(output, 'data')) as [Buffer];
      expect(JSON.parse(line.toString('utf8')).result.content[0].text).toBe('done');
      expect(spanOf('stdio-1').attributes).toMatchObject({ 'network.transport': 'pipe', 'mcp.outcome': 'complete' });
      expect(eventOf('stdio-1')).toMatchObject({ transport: 'stdio', era: 'modern', principal: null });
      const { points } = await histogram('mcp.server.operation.duration');
      expect(points.map((p) => p.attributes)).toContainEqual(
        expect.objectContaining({ 'gen_ai.tool.name': 'traced', 'network.transport': 'pipe' }),
      );
    } finally {
      await connection.close();
      await app.close();
    }
  });

  it('a 2025-era stdio connection: initialize and the later calls carry one mcp.session.id', async () => {
    const app = await NestFactory.createApplicationContext(TelemetryAppModule, { logger: false });
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = McpStdioTransport.fromContext(app).listen({ input, output });
    const send = async (message: Record<string, unknown>): Promise<Record<string, unknown>> => {
      input.write(`${JSON.stringify(message)}\n`);
      const [line] = (await once(output, 'data')) as [Buffer];
      return JSON.parse(line.toString('utf8')) as Record<string, unknown>;
    };
    try {
      await send({
        jsonrpc: '2.0',
        id: 'stdio-init',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio-test', version: '1' } },
      });
      input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      await send({ jsonrpc: '2.0', id: 'stdio-call', method: 'tools/call', params: { name: 'traced', arguments: {} } });
      const initialized = spanOf('stdio-init').attributes['mcp.session.id'];
      expect(typeof initialized).toBe('string');
      expect(spanOf('stdio-call').attributes['mcp.session.id']).toBe(initialized);
    } finally {
      await connection.close();
      await app.close();
    }
  });
});
