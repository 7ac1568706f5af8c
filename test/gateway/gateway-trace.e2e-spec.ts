import { Module } from '@nestjs/common';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { randomBytes } from 'node:crypto';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { envelope, mcpHeaders, type RawResponse, send } from '../support/raw-mcp.js';
import { type AdapterKind, startApp, type RunningApp } from '../support/start-app.js';
import { installOtelSdk } from '../telemetry/otel-sdk.js';
import { BookingUpstreamModule } from './support/eliciting-upstream.js';
import { gatewayModule, type UpstreamEra } from './support/gateway-app.js';

const CALLER_SPAN = '00f067aa0ba902b7';

/** A request to the gateway from a caller in its own trace (`traceId`, a fresh one per request). */
function callGateway(
  gateway: RunningApp,
  traceId: string,
  method: string,
  params: Record<string, unknown>,
): Promise<RawResponse> {
  const name = typeof params['name'] === 'string' ? params['name'] : undefined;
  const _meta = { ...envelope(), traceparent: `00-${traceId}-${CALLER_SPAN}-01` };
  return send(
    gateway.url,
    'POST',
    { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } },
    mcpHeaders(method, name ?? (params['uri'] as string | undefined)),
  );
}

/** What the upstream tool `traceparent` says it received, for a call through the gateway. */
async function upstreamTraceparent(gateway: RunningApp, traceId: string): Promise<string> {
  const response = await callGateway(gateway, traceId, 'tools/call', { name: 'ref_traceparent', arguments: {} });
  return (response.json.result as { content: Array<{ text: string }> }).content[0]!.text;
}

const newTraceId = (): string => randomBytes(16).toString('hex');

let upstream: RunningApp;
beforeAll(async () => {
  upstream = await startApp(BookingUpstreamModule, 'express');
});
afterAll(async () => {
  await upstream?.close();
});

describe('McpGatewayModule: trace context upstream, with an OpenTelemetry SDK', () => {
  const { spans } = installOtelSdk();

  /** The finished spans of one trace. */
  const traceSpans = (traceId: string): ReadableSpan[] =>
    spans.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  const clientSpans = (traceId: string): ReadableSpan[] =>
    traceSpans(traceId).filter((span) => span.kind === SpanKind.CLIENT);

  async function tracedGateway(adapter: AdapterKind, era: UpstreamEra): Promise<RunningApp> {
    @Module({ imports: [gatewayModule(upstream.url, era), McpOpenTelemetryModule.forRoot()] })
    class TracedGateway {}
    return startApp(TracedGateway, adapter);
  }

  it.each<[AdapterKind, UpstreamEra, string]>([
    ['express', 'modern', '2026-07-28'],
    ['fastify', 'legacy', '2025-11-25'],
  ])(
    'with McpOpenTelemetryModule (%s, %s upstream): a CLIENT span, child of our server span, is the upstream request’s parent',
    async (adapter, era, protocolVersion) => {
      const gateway = await tracedGateway(adapter, era);
      try {
        const traceId = newTraceId();
        const [, receivedTrace, receivedParent] = (await upstreamTraceparent(gateway, traceId)).split('-');
        const server = traceSpans(traceId).find((span) => span.kind === SpanKind.SERVER);
        expect(server?.name).toBe('tools/call ref_traceparent');
        expect(server!.parentSpanContext?.spanId).toBe(CALLER_SPAN);
        const [client, ...more] = clientSpans(traceId);
        expect(more).toEqual([]);
        expect(client?.name).toBe('tools/call traceparent');
        expect(client!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId);
        expect(client!.instrumentationScope.name).toBe(server!.instrumentationScope.name);
        expect(client!.attributes).toMatchObject({
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'traceparent',
          'gen_ai.operation.name': 'execute_tool',
          'mcp.protocol.version': protocolVersion,
          'server.address': '127.0.0.1',
          'server.port': Number(new URL(upstream.url).port),
          'network.transport': 'tcp',
        });
        expect(client!.attributes['error.type']).toBeUndefined();
        expect(client!.status.code).toBe(SpanStatusCode.UNSET);
        // The upstream's own request names the CLIENT span as its parent.
        expect(receivedTrace).toBe(traceId);
        expect(receivedParent).toBe(client!.spanContext().spanId);
      } finally {
        await gateway.close();
      }
    },
  );

  it("a prompt's and a resource's CLIENT spans carry their target", async () => {
    const gateway = await tracedGateway('express', 'modern');
    try {
      const promptTrace = newTraceId();
      const prompt = await callGateway(gateway, promptTrace, 'prompts/get', { name: 'ref_greeting' });
      expect(prompt.json.result).toBeDefined();
      const [promptSpan] = clientSpans(promptTrace);
      expect(promptSpan?.name).toBe('prompts/get greeting');
      expect(promptSpan!.attributes).toMatchObject({
        'mcp.method.name': 'prompts/get',
        'gen_ai.prompt.name': 'greeting',
      });

      const resourceTrace = newTraceId();
      const resource = await callGateway(gateway, resourceTrace, 'resources/read', { uri: 'upstream://menu' });
      expect(resource.json.result).toBeDefined();
      const [resourceSpan] = clientSpans(resourceTrace);
      expect(resourceSpan?.name).toBe('resources/read');
      expect(resourceSpan!.attributes).toMatchObject({
        'mcp.method.name': 'resources/read',
        'mcp.resource.uri': 'upstream://menu',
      });
    } finally {
      await gateway.close();
    }
  });

  it('an upstream that is down: the CLIENT span has an error status and error.type', async () => {
    const stopping = await startApp(BookingUpstreamModule, 'express');
    let gateway: RunningApp | undefined;
    try {
      @Module({ imports: [gatewayModule(stopping.url, 'modern'), McpOpenTelemetryModule.forRoot()] })
      class TracedGateway {}
      gateway = await startApp(TracedGateway, 'fastify');
    } finally {
      // Mounted while it was up; down for the call.
      await stopping.close();
    }
    try {
      const traceId = newTraceId();
      const refused = await callGateway(gateway, traceId, 'tools/call', { name: 'ref_sleep', arguments: { ms: 0 } });
      expect(refused.json.error?.code).toBe(-32051);
      const [client] = clientSpans(traceId);
      expect(client?.name).toBe('tools/call sleep');
      expect(client!.status).toMatchObject({
        code: SpanStatusCode.ERROR,
        message: expect.stringMatching(/the upstream "ref" cannot be reached/),
      });
      expect(client!.attributes['error.type']).toBe('unavailable');
    } finally {
      await gateway.close();
    }
  });

  it('an answer over maxResultChars: the CLIENT span has the McpUpstreamError reason as error.type', async () => {
    @Module({
      imports: [gatewayModule(upstream.url, 'modern', { maxResultChars: 2000 }), McpOpenTelemetryModule.forRoot()],
    })
    class TracedGateway {}
    const gateway = await startApp(TracedGateway, 'express');
    try {
      const traceId = newTraceId();
      const result = await callGateway(gateway, traceId, 'tools/call', { name: 'ref_big', arguments: {} });
      expect(result.json.result?.isError).toBe(true);
      const [client] = clientSpans(traceId);
      expect(client?.name).toBe('tools/call big');
      expect(client!.status.code).toBe(SpanStatusCode.ERROR);
      expect(client!.attributes['error.type']).toBe('too-large');
    } finally {
      await gateway.close();
    }
  });

  it('a tool error upstream: the CLIENT span has an error status and error.type tool_error', async () => {
    const gateway = await tracedGateway('fastify', 'modern');
    try {
      const traceId = newTraceId();
      const result = await callGateway(gateway, traceId, 'tools/call', { name: 'ref_refuse', arguments: {} });
      expect(result.json.result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No tables left.' }] });
      const [client] = clientSpans(traceId);
      expect(client?.name).toBe('tools/call refuse');
      expect(client!.status.code).toBe(SpanStatusCode.ERROR);
      expect(client!.attributes['error.type']).toBe('tool_error');
    } finally {
      await gateway.close();
    }
  });

  it("without McpOpenTelemetryModule: the CLIENT span continues the caller's trace", async () => {
    const gateway = await startApp(gatewayModule(upstream.url, 'modern'), 'fastify');
    try {
      const traceId = newTraceId();
      const [, receivedTrace, receivedParent] = (await upstreamTraceparent(gateway, traceId)).split('-');
      const [client] = clientSpans(traceId);
      expect(client?.name).toBe('tools/call traceparent');
      expect(client!.parentSpanContext?.spanId).toBe(CALLER_SPAN);
      expect(receivedTrace).toBe(traceId);
      expect(receivedParent).toBe(client!.spanContext().spanId);
    } finally {
      await gateway.close();
    }
  });
});

describe('McpGatewayModule: trace context upstream, without a tracer provider', () => {
  it("the caller's own traceparent is passed on as it came", async () => {
    const gateway = await startApp(gatewayModule(upstream.url, 'modern'), 'express');
    try {
      const traceId = newTraceId();
      expect(await upstreamTraceparent(gateway, traceId)).toBe(`00-${traceId}-${CALLER_SPAN}-01`);
    } finally {
      await gateway.close();
    }
  });
});
