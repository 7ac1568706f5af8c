import {
  Inject,
  Injectable,
  Module,
  Scope,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import {
  ContextIdFactory,
  REQUEST,
  type ContextId,
  type ContextIdResolver,
  type ContextIdStrategy,
  type HostComponentInfo,
} from '@nestjs/core';
import { map } from 'rxjs';
import {
  ElicitationContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpTool,
  type McpRequestContext,
} from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { rpc } from '../support/raw-mcp.js';
import { ADAPTERS } from '../support/start-app.js';

/** A singleton the contextual providers depend on. */
@Injectable()
class Counter {
  readonly constructed: Record<string, number> = {};
  made(kind: string): number {
    return (this.constructed[kind] = (this.constructed[kind] ?? 0) + 1);
  }
}

class Shout implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value) => (typeof value === 'string' ? value.toUpperCase() : value)));
  }
}

@Injectable({ scope: Scope.REQUEST })
class RequestTools {
  private readonly instance: number;

  constructor(
    private readonly counter: Counter,
    @Inject(REQUEST) private readonly request: McpRequestContext,
    private readonly elicitation: ElicitationContext,
  ) {
    this.instance = counter.made('request');
  }

  @McpTool({ name: 'whoami', description: 'Reports its own instance and the request it was made for' })
  whoami(): string {
    return `instance ${this.instance} for ${this.request.exchange.method} by ${String(this.request.headers['x-user'])}`;
  }

  @McpTool({ name: 'confirm_scoped', description: 'Asks, from a request-scoped provider' })
  @UseInterceptors(Shout)
  async confirm(): Promise<string> {
    const answer = await this.elicitation.elicit('Sure?', (s) => s.boolean('ok'));
    return answer.action === 'accept' && answer.content.ok ? `confirmed by instance ${this.instance}` : 'no';
  }

  @McpPrompt({ name: 'scoped_prompt', description: 'A prompt from a request-scoped provider' })
  prompt(): string {
    return `prompt from instance ${this.instance}`;
  }

  @McpResource({
    uri: 'scoped://note',
    name: 'note',
    description: 'A resource from a request-scoped provider',
    mimeType: 'text/plain',
  })
  note(): string {
    return `note from instance ${this.instance}`;
  }
}

@Injectable({ scope: Scope.TRANSIENT })
class TransientTools {
  private readonly instance: number;
  constructor(counter: Counter) {
    this.instance = counter.made('transient');
  }

  @McpTool({ name: 'transient_tool', description: 'A tool on a transient provider' })
  run(): string {
    return `transient ${this.instance}`;
  }
}

/** Durable per tenant: one instance per `x-tenant` header value, kept across requests. */
@Injectable({ scope: Scope.REQUEST, durable: true })
class TenantTools {
  private readonly instance: number;
  constructor(
    counter: Counter,
    @Inject(REQUEST) private readonly tenant: { tenantId: string },
  ) {
    this.instance = counter.made('tenant');
  }

  @McpTool({ name: 'tenant_tool', description: 'A tool on a durable provider' })
  run(): string {
    return `tenant ${this.tenant.tenantId} instance ${this.instance}`;
  }
}

const tenants = new Map<string, ContextId>();
class TenantStrategy implements ContextIdStrategy {
  attach(contextId: ContextId, request: McpRequestContext): ContextIdResolver {
    const tenantId = String(request.headers['x-tenant'] ?? 'none');
    let tenantSubTreeId = tenants.get(tenantId);
    if (!tenantSubTreeId) {
      tenantSubTreeId = ContextIdFactory.create();
      tenants.set(tenantId, tenantSubTreeId);
    }
    return {
      resolve: (info: HostComponentInfo) => (info.isTreeDurable ? tenantSubTreeId : contextId),
      payload: { tenantId },
    };
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      name: 'scoped',
      version: '1.0.0',
      mrtr: { secrets: ['contextual-providers-secret-0123456789-ab'] },
    }),
  ],
  providers: [Counter, RequestTools, TransientTools, TenantTools],
})
class ScopedModule {}

/** A tools/call with extra headers (the test client sends none of its own); the text it answers. */
async function callWithHeaders(url: string, name: string, headers: Record<string, string>): Promise<string> {
  const response = await rpc(url, 'tools/call', { name, arguments: {} }, { id: 1, headers });
  return response.json.result.content[0].text;
}

describe.each(ADAPTERS)('tools, prompts and resources on contextual providers, on %s', (adapter) => {
  let mcp: McpTestClient;
  let counter: Counter;
  beforeAll(async () => {
    ContextIdFactory.apply(new TenantStrategy());
    mcp = await McpTestClient.start(ScopedModule, { adapter });
    counter = mcp.app.get(Counter);
  });
  afterAll(() => mcp.close());

  it('request-scoped: a new instance per call, its dependencies injected, REQUEST is the MCP request context', async () => {
    const first = await callWithHeaders(mcp.url, 'whoami', { 'x-user': 'ada' });
    const second = await callWithHeaders(mcp.url, 'whoami', { 'x-user': 'bob' });
    expect(first).toMatch(/^instance \d+ for tools\/call by ada$/);
    expect(second).toMatch(/^instance \d+ for tools\/call by bob$/);
    expect(first.split(' ')[1]).not.toBe(second.split(' ')[1]);
  });

  it('request-scoped: elicitation replays on a fresh instance each round, and the tool’s interceptor applies', async () => {
    const round = await mcp.callTool('confirm_scoped');
    expect(round.isComplete).toBe(false);
    const done = await round.respond({ 'elicit-1': { action: 'accept', content: { ok: true } } });
    expect(done.result['content']).toEqual([
      { type: 'text', text: expect.stringMatching(/^CONFIRMED BY INSTANCE \d+$/) },
    ]);
  });

  it('request-scoped: prompts and resources too', async () => {
    expect(JSON.stringify((await mcp.getPrompt('scoped_prompt')).result['messages'])).toMatch(
      /prompt from instance \d+/,
    );
    expect(JSON.stringify((await mcp.readResource('scoped://note')).result['contents'])).toMatch(
      /note from instance \d+/,
    );
  });

  it('transient: resolved per call', async () => {
    const before = counter.constructed['transient'] ?? 0;
    const text = (await mcp.callTool('transient_tool')).result['content'] as Array<{ text: string }>;
    expect(text[0]!.text).toMatch(/^transient \d+$/);
    expect(counter.constructed['transient']).toBeGreaterThan(before);
  });

  it('durable: one instance per tenant, chosen by the ContextIdStrategy from the MCP request', async () => {
    const a1 = await callWithHeaders(mcp.url, 'tenant_tool', { 'x-tenant': `a-${adapter}` });
    const a2 = await callWithHeaders(mcp.url, 'tenant_tool', { 'x-tenant': `a-${adapter}` });
    const b1 = await callWithHeaders(mcp.url, 'tenant_tool', { 'x-tenant': `b-${adapter}` });
    expect(a1).toMatch(new RegExp(`^tenant a-${adapter} instance \\d+$`));
    expect(a2).toBe(a1);
    expect(b1).not.toBe(a1);
  });

  it('leaves the users’ method metadata as it was', () => {
    expect(Reflect.getMetadata('__interceptors__', RequestTools.prototype.confirm)).toEqual([Shout]);
    expect(Reflect.getMetadata('__exceptionFilters__', RequestTools.prototype.confirm)).toBeUndefined();
    expect(Reflect.getMetadata('__interceptors__', TransientTools.prototype.run)).toBeUndefined();
  });
});
