import { Global, Injectable, Module } from '@nestjs/common';
import { INTEGRATION_REQUEST_OBSERVER } from '../../src/core/mcp.tokens.js';
import { type McpAuditEvent, McpModule, McpObserver, type McpRequestObserver, McpTool } from '../../src/index.js';
import { McpOpenTelemetryModule } from '../../src/opentelemetry/index.js';
import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { installOtelSdk } from './otel-sdk.js';

const { spans } = installOtelSdk();

@Injectable()
class EchoTools {
  @McpTool({ name: 'echo', description: 'Answers ok' })
  echo(): string {
    return 'ok';
  }
}

/** The application's own observer, beside OpenTelemetry's. */
@McpObserver()
@Injectable()
class CountingObserver implements McpRequestObserver {
  readonly order: string[] = [];
  readonly finishedIds: unknown[] = [];

  async around<T>(trace: McpRequestObserver.Trace, next: () => Promise<T>): Promise<T> {
    this.order.push(`own ${String(trace.id)}`);
    return next();
  }

  finished(event: McpAuditEvent): void {
    this.finishedIds.push(event.id);
  }
}

const slotted: unknown[] = [];
const SLOT_OBSERVER: McpRequestObserver = { finished: (event) => slotted.push(event.id) };

/** An integration module's way: the slot, from a global module. */
@Global()
@Module({
  providers: [{ provide: INTEGRATION_REQUEST_OBSERVER, useValue: SLOT_OBSERVER }],
  exports: [INTEGRATION_REQUEST_OBSERVER],
})
class SlotModule {}

@Module({
  imports: [McpModule.forRoot({ name: 'observed', version: '1.0.0' }), McpOpenTelemetryModule.forRoot(), SlotModule],
  providers: [EchoTools, CountingObserver],
})
class ObservedModule {}

describe.each(ADAPTERS)('observers compose (%s)', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => (server = await startApp(ObservedModule, adapter)));
  afterAll(() => server.close());

  it("OpenTelemetry, the application's @McpObserver() and the integration slot all see the request", async () => {
    const id = `observed-${adapter}`;
    const params = { name: 'echo', arguments: {}, _meta: envelope() };
    const r = await post(
      server.url,
      { jsonrpc: '2.0', id, method: 'tools/call', params },
      mcpHeaders('tools/call', 'echo'),
    );
    expect(r.json.result.content).toEqual([{ type: 'text', text: 'ok' }]);
    const own = server.app.get(CountingObserver);
    expect(own.order).toContain(`own ${id}`);
    expect(own.finishedIds).toContain(id);
    expect(slotted).toContain(id);
    const span = spans.getFinishedSpans().find((s) => s.attributes['jsonrpc.request.id'] === id);
    expect(span?.attributes['mcp.outcome']).toBe('complete');
  });
});
