import { Module } from '@nestjs/common';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { envelope, mcpHeaders, send } from '../support/raw-mcp.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { installOtelSdk } from '../telemetry/otel-sdk.js';
import { BookingUpstreamModule } from './support/eliciting-upstream.js';
import { gatewayModule } from './support/gateway-app.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/** What the upstream tool `traceparent` says it received, for a call through the gateway. */
async function upstreamTraceparent(gateway: RunningApp): Promise<string> {
  const response = await send(
    gateway.url,
    'POST',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'ref_traceparent',
        arguments: {},
        _meta: { ...envelope(), traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      },
    },
    mcpHeaders('tools/call', 'ref_traceparent'),
  );
  return (response.json.result as { content: Array<{ text: string }> }).content[0]!.text;
}

describe('McpGatewayModule: trace context upstream', () => {
  const { spans } = installOtelSdk();
  let upstream: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(BookingUpstreamModule, 'express');
  });
  afterAll(async () => {
    await upstream?.close();
  });

  it("with McpOpenTelemetryModule: the upstream request's parent is our server span, in the caller's trace", async () => {
    @Module({ imports: [gatewayModule(upstream.url, 'modern'), McpOpenTelemetryModule.forRoot()] })
    class TracedGateway {}
    const gateway = await startApp(TracedGateway, 'express');
    try {
      const received = await upstreamTraceparent(gateway);
      const [, traceId, parentId] = received.split('-');
      expect(traceId).toBe(CALLER_TRACE);
      const server = spans
        .getFinishedSpans()
        .find((span) => span.spanContext().traceId === CALLER_TRACE && span.parentSpanContext?.spanId === CALLER_SPAN);
      expect(server).toBeDefined();
      expect(parentId).toBe(server!.spanContext().spanId);
    } finally {
      await gateway.close();
    }
  });

  it("without it: the caller's own traceparent is passed on", async () => {
    const gateway = await startApp(gatewayModule(upstream.url, 'modern'), 'fastify');
    try {
      expect(await upstreamTraceparent(gateway)).toBe(`00-${CALLER_TRACE}-${CALLER_SPAN}-01`);
    } finally {
      await gateway.close();
    }
  });
});
