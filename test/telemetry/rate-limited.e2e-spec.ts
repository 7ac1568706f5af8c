import { Injectable, Module } from '@nestjs/common';
import { type McpAuditEvent, McpAuditSink, McpModule, McpTool } from '../../src/index.js';
import { MCP_RATE_LIMITED, McpThrottlerModule } from '../../src/throttler/index.js';
import { HeaderPrincipalSource } from '../legacy/legacy.fixtures.js';
import { rpc } from '../support/raw-mcp.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';

class CollectingSink extends McpAuditSink {
  readonly events: McpAuditEvent[] = [];
  record(event: McpAuditEvent): void {
    this.events.push(event);
  }
}

@Injectable()
class LimitedTools {
  @McpTool({ name: 'once', description: 'One call a minute' })
  once(): string {
    return 'once';
  }
}

describe.each(ADAPTERS)('audit events of a rate-limited call (%s)', (adapter) => {
  const sink = new CollectingSink();
  let server: RunningApp;

  beforeAll(async () => {
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'limited',
          version: '1.0.0',
          principalSource: HeaderPrincipalSource,
          auditSink: sink,
        }),
        McpThrottlerModule.forRoot([{ name: 'default', limit: 1, ttl: 60_000 }]),
      ],
      providers: [LimitedTools],
    })
    class LimitedModule {}
    server = await startApp(LimitedModule, adapter);
  });
  afterAll(() => server.close());

  it('the call past the limit is audited as rate_limited, with its code and principal', async () => {
    const call = (id: number) =>
      rpc(server.url, 'tools/call', { name: 'once', arguments: {} }, { id, headers: { 'x-user': 'carol' } });
    expect((await call(1)).status).toBe(200);
    const limited = await call(2);
    expect(limited.status).toBe(429);
    expect(sink.events.map((e) => [e.id, e.principal, e.outcome])).toEqual([
      [1, 'carol', { kind: 'complete' }],
      [2, 'carol', { kind: 'rate_limited', code: MCP_RATE_LIMITED, message: limited.json.error.message }],
    ]);
  });
});
