// The OpenTelemetry MCP semantic conventions (semantic-conventions `docs/gen-ai/mcp.md`), checked
// with in-memory exporters against a real app driven by the official client: span names without
// resource URIs, `rpc.response.status_code` and the JSON-RPC message as the status description,
// `mcp.session.id` on `initialize`, SERVER spans for client notifications, a CLIENT span (with its
// context in `params._meta`) per pushed `elicitation/create`, and the duration points' attributes.
import { setTimeout as delay } from 'node:timers/promises';
import { Injectable, Module } from '@nestjs/common';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { McpError, McpPrompt, McpTool } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { legacyModule } from '../legacy/legacy.fixtures.js';
import { connectLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { installOtelSdk } from './otel-sdk.js';

const { spans, histogram } = installOtelSdk();

const SERVER = 1;
const CLIENT = 2;
const ERROR = 2;

@Injectable()
class OrderTools {
  @McpTool({ name: 'close_order', description: 'Refuses: the order is closed' })
  closeOrder(): string {
    throw McpError.invalidParams('The order is closed already');
  }

  @McpPrompt({ name: 'order_summary', description: 'Summarises an order' })
  orderSummary(): string {
    return 'An order';
  }
}

@Module({ imports: [legacyModule(), McpOpenTelemetryModule.forRoot()], providers: [OrderTools] })
class ConventionsAppModule {}

/** The spans finished since `mark` (a count of finished spans taken before). */
const since = (mark: number): ReadableSpan[] => spans.getFinishedSpans().slice(mark);

/** Polls until `find` finds something (spans of notifications end after the 202 is written). */
async function eventually<T>(find: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 250; attempt++) {
    const found = find();
    if (found !== undefined) return found;
    await delay(20);
  }
  throw new Error('not found within 5 s');
}

/** Ends the 2025-era session (DELETE) and closes the client, as a well-behaved client does. */
async function closeLegacy(legacy: LegacyClient): Promise<void> {
  await legacy.transport.terminateSession();
  await legacy.close();
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe.each(ADAPTERS)('the MCP semantic conventions (%s)', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(ConventionsAppModule, adapter);
  });
  afterAll(() => server.close());

  it('resources/read: the span is named by the method alone, the URI is in mcp.resource.uri', async () => {
    const client = await connectOfficialClient(server.url);
    try {
      const mark = spans.getFinishedSpans().length;
      const read = await client.readResource({ uri: 'legacy://note' });
      expect(read.contents[0]).toMatchObject({ uri: 'legacy://note', text: 'a note' });
      const span = since(mark).find((s) => s.kind === SERVER && s.attributes['mcp.method.name'] === 'resources/read');
      expect(span?.name).toBe('resources/read');
      expect(span?.attributes['mcp.resource.uri']).toBe('legacy://note');
      const prompt = await client.getPrompt({ name: 'order_summary' });
      expect(prompt.messages).toHaveLength(1);
      const named = since(mark).find((s) => s.kind === SERVER && s.attributes['mcp.method.name'] === 'prompts/get');
      expect(named?.name).toBe('prompts/get order_summary');
    } finally {
      await client.close();
    }
  });

  /** Calls close_order (a JSON-RPC error) and greet (a result) with the official client: their SERVER spans. */
  async function failedAndPlainCalls(): Promise<{ failed?: ReadableSpan; plain?: ReadableSpan }> {
    const client = await connectOfficialClient(server.url);
    try {
      const mark = spans.getFinishedSpans().length;
      await expect(client.callTool({ name: 'close_order', arguments: {} })).rejects.toThrow(
        'The order is closed already',
      );
      const ok = await client.callTool({ name: 'greet', arguments: {} });
      expect(ok.content).toEqual([{ type: 'text', text: 'Hello!' }]);
      const byTool = (name: string) =>
        since(mark).find((s) => s.kind === SERVER && s.attributes['gen_ai.tool.name'] === name);
      return { failed: byTool('close_order'), plain: byTool('greet') };
    } finally {
      await client.close();
    }
  }

  it('a JSON-RPC error: rpc.response.status_code (the code as a string) beside error.type', async () => {
    const { failed, plain } = await failedAndPlainCalls();
    expect(failed?.attributes).toMatchObject({
      'mcp.outcome': 'protocol_error',
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
    });
    expect(plain?.attributes['rpc.response.status_code']).toBeUndefined();
  });

  it("a JSON-RPC error: the span status is ERROR with the error's message as its description", async () => {
    const { failed, plain } = await failedAndPlainCalls();
    expect(failed?.status).toEqual({ code: ERROR, message: 'The order is closed already' });
    expect(plain?.status).toEqual({ code: 0 });
  });

  it('resources/subscribe (2025 era): the URI is in mcp.resource.uri, not in the span name', async () => {
    const mark = spans.getFinishedSpans().length;
    const legacy = await connectLegacyClient(server.url);
    try {
      await legacy.client.subscribeResource({ uri: 'legacy://note' });
      const span = since(mark).find(
        (s) => s.kind === SERVER && s.attributes['mcp.method.name'] === 'resources/subscribe',
      );
      expect(span?.name).toBe('resources/subscribe');
      expect(span?.attributes['mcp.resource.uri']).toBe('legacy://note');
    } finally {
      await closeLegacy(legacy);
    }
  });

  it('initialize (2025 era): the span carries mcp.session.id, the id every later request of the session carries', async () => {
    const mark = spans.getFinishedSpans().length;
    const legacy = await connectLegacyClient(server.url);
    try {
      await legacy.client.callTool({ name: 'greet', arguments: {} });
      const initialize = since(mark).find((s) => s.kind === SERVER && s.name === 'initialize');
      const call = since(mark).find((s) => s.kind === SERVER && s.attributes['gen_ai.tool.name'] === 'greet');
      expect(initialize?.attributes['mcp.session.id']).toEqual(expect.any(String));
      expect(initialize?.attributes['mcp.session.id']).toBe(call?.attributes['mcp.session.id']);
      // The internal id, never the token the client holds.
      expect(initialize?.attributes['mcp.session.id']).not.toBe(legacy.transport.sessionId);
    } finally {
      await closeLegacy(legacy);
    }
  });

  it('client notifications (2025 era): a SERVER span each, named by the method, in the session', async () => {
    const mark = spans.getFinishedSpans().length;
    const legacy = await connectLegacyClient(server.url);
    try {
      const initialized = await eventually(() => since(mark).find((s) => s.name === 'notifications/initialized'));
      const initialize = since(mark).find((s) => s.kind === SERVER && s.name === 'initialize');
      expect(initialized.kind).toBe(SERVER);
      expect(initialized.attributes).toMatchObject({
        'mcp.method.name': 'notifications/initialized',
        'mcp.session.id': initialize?.attributes['mcp.session.id'],
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'tcp',
      });
      expect(initialized.attributes['jsonrpc.request.id']).toBeUndefined();

      // The official client cancels a call it aborts with notifications/cancelled.
      const abort = new AbortController();
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const call = legacy.client
        .callTool({ name: 'wait_for_cancel', arguments: {} }, { signal: abort.signal, onprogress: () => started() })
        .catch((error: unknown) => error);
      await running;
      abort.abort('changed my mind');
      expect(await call).toBeInstanceOf(Error);
      const cancelled = await eventually(() => since(mark).find((s) => s.name === 'notifications/cancelled'));
      expect(cancelled.kind).toBe(SERVER);
      expect(cancelled.attributes).toMatchObject({
        'mcp.method.name': 'notifications/cancelled',
        'mcp.session.id': initialize?.attributes['mcp.session.id'],
      });
      const stopped = await eventually(() =>
        since(mark).find((s) => s.kind === SERVER && s.attributes['gen_ai.tool.name'] === 'wait_for_cancel'),
      );
      expect(stopped.attributes['mcp.outcome']).toBe('cancelled');
    } finally {
      await closeLegacy(legacy);
    }
  });

  it('a 2026-07-28 notification (202, nothing run): a SERVER span under the traceparent in its _meta', async () => {
    const mark = spans.getFinishedSpans().length;
    const method = 'notifications/cancelled';
    const params = { requestId: 'gone', _meta: { ...envelope(), traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } };
    const r = await post(server.url, { jsonrpc: '2.0', method, params }, mcpHeaders(method));
    expect(r.status).toBe(202);
    const span = await eventually(() => since(mark).find((s) => s.name === method));
    expect(span.kind).toBe(SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': method,
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
    });
    expect(span.attributes['mcp.session.id']).toBeUndefined();
  });

  it('a pushed elicitation/create: a CLIENT span, child of the call, its context in the request _meta', async () => {
    const mark = spans.getFinishedSpans().length;
    const legacy = await connectLegacyClient(server.url, {
      onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    try {
      const result = await legacy.client.callTool({
        name: 'ask_name',
        arguments: {},
        _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'congo=t61rcWkgMzE' },
      });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      const call = since(mark).find((s) => s.kind === SERVER && s.attributes['gen_ai.tool.name'] === 'ask_name')!;
      expect(call.spanContext().traceId).toBe(TRACE_ID);
      const pushed = since(mark).filter((s) => s.kind === CLIENT);
      expect(pushed).toHaveLength(1);
      const [push] = pushed as [ReadableSpan];
      expect(push.name).toBe('elicitation/create');
      expect(push.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
      expect(push.attributes).toMatchObject({
        'mcp.method.name': 'elicitation/create',
        'jsonrpc.request.id': expect.stringMatching(/^mocapi-/),
        'mcp.session.id': call.attributes['mcp.session.id'],
        'mcp.protocol.version': '2025-11-25',
        'network.transport': 'tcp',
      });
      expect(push.status.code).toBe(0);
      const { spanId, traceId } = push.spanContext();
      expect(legacy.asked[0]?._meta).toMatchObject({
        traceparent: `00-${traceId}-${spanId}-01`,
        tracestate: 'congo=t61rcWkgMzE',
      });
    } finally {
      await closeLegacy(legacy);
    }
  });

  it('a pushed request the client answers with an error: the CLIENT span fails with its code and message', async () => {
    const mark = spans.getFinishedSpans().length;
    const legacy = await connectLegacyClient(server.url, {
      onElicit: () => {
        throw new Error('The user closed the dialog');
      },
    });
    try {
      const result = await legacy.client.callTool({ name: 'ask_name', arguments: {} });
      expect(result.isError).toBe(true);
      const push = since(mark).find((s) => s.kind === CLIENT)!;
      const code = push.attributes['rpc.response.status_code'];
      expect(code).toMatch(/^-?\d+$/);
      expect(push.attributes['error.type']).toBe(code);
      expect(push.status).toEqual({ code: ERROR, message: 'The user closed the dialog' });
    } finally {
      await closeLegacy(legacy);
    }
  });

  it('duration points: network.transport, gen_ai.operation.name for tools/call, rpc.response.status_code on errors', async () => {
    const server = await histogram('mcp.server.operation.duration');
    const points = server.points.map((p) => p.attributes);
    expect(points).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'greet',
          'gen_ai.operation.name': 'execute_tool',
          'network.transport': 'tcp',
        }),
        expect.objectContaining({
          'gen_ai.tool.name': 'close_order',
          'error.type': '-32602',
          'rpc.response.status_code': '-32602',
        }),
        expect.objectContaining({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'order_summary' }),
        expect.objectContaining({ 'mcp.method.name': 'notifications/initialized', 'network.transport': 'tcp' }),
      ]),
    );
    const read = points.find((p) => p['mcp.method.name'] === 'resources/read');
    expect(read?.['network.transport']).toBe('tcp');
    expect(read?.['gen_ai.operation.name']).toBeUndefined();
    expect(points.filter((p) => p['rpc.response.status_code'] !== undefined && p['error.type'] === undefined)).toEqual(
      [],
    );

    const client = await histogram('mcp.client.operation.duration');
    expect(client.unit).toBe('s');
    expect(client.points.map((p) => p.attributes)).toEqual(
      expect.arrayContaining([
        {
          'mcp.method.name': 'elicitation/create',
          'network.transport': 'tcp',
          'network.protocol.name': 'http',
          'mcp.protocol.version': '2025-11-25',
        },
        expect.objectContaining({
          'mcp.method.name': 'elicitation/create',
          'rpc.response.status_code': expect.any(String),
        }),
      ]),
    );
  });
});
