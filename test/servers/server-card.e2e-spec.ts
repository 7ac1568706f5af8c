import { readFileSync } from 'node:fs';
import { Injectable, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { McpHttpAuthenticator, McpHttpChallenge, McpModule, type McpModuleOptions, McpTool } from '../../src/index.js';
import { AppModule } from '../../sample/app.module.js';
import { connectLegacyClient } from '../legacy/legacy-client.js';
import { connectOfficialClient } from '../support/official-client.js';
import { rpc, send, type RawResponse } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';

// The Server Card (SEP-2127, the draft extension io.modelcontextprotocol/server-card) of each
// server of one application, read over HTTP as a registry or a browser would, and validated
// against the extension's published JSON Schema (test/servers/fixtures, offline).

const EXTENSION = 'io.modelcontextprotocol/server-card';
const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The v1 card's schema, as the extension's own examples are checked: `$defs/ServerCard`. */
function cardValidator(): ValidateFunction {
  const schema = JSON.parse(readFileSync(new URL('./fixtures/server-card.schema.json', import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajvFormats.default(ajv);
  ajv.addSchema(schema, 'server-card.schema.json');
  return ajv.getSchema('server-card.schema.json#/$defs/ServerCard')!;
}
const validCard = cardValidator();

/** The card's schema errors, [] when it is valid. */
const schemaErrors = (card: unknown) => (validCard(card) ? [] : validCard.errors);

/** Refuses every request: the staff server's MCP endpoint is behind it, its card is not. */
class RefuseAll extends McpHttpAuthenticator {
  async authenticate(): Promise<void> {
    throw new McpHttpChallenge(401, { 'www-authenticate': 'Bearer realm="staff"' }, { error: 'invalid_token' });
  }
}

@Injectable()
class OrderTools {
  @McpTool({ description: 'Finds an order' })
  find(): string {
    return 'order 1';
  }
}

@Module({ providers: [OrderTools] })
class OrdersModule {}

const ORDERS_CARD = {
  name: 'com.example/orders',
  description: 'Finds orders and their parcels',
  websiteUrl: 'https://example.com/orders',
  repository: { url: 'https://github.com/example/orders', source: 'github', subfolder: 'servers/orders' },
  baseUrl: 'https://mcp.example.com/',
  _meta: { 'com.example/region': 'eu' },
};
const STAFF_REMOTES = [
  {
    type: 'streamable-http' as const,
    url: 'https://{tenant}.example.com/mcp/staff',
    headers: [{ name: 'Authorization', value: 'Bearer {token}', isRequired: true, isSecret: true }],
    variables: { tenant: { description: 'Your tenant', isRequired: true, default: 'acme' } },
    supportedProtocolVersions: ['2026-07-28'],
  },
];

/** Three servers: two with a card (the staff one behind an authenticator), one with `card: false`. */
function cardsModule(): Type {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'orders',
        title: 'Orders',
        version: '1.4.0',
        icons: [{ src: PNG, mimeType: 'image/png', sizes: ['1x1'] }],
        include: [OrdersModule],
        card: ORDERS_CARD,
      }),
      McpModule.forRoot({
        name: 'staff',
        version: '2.0.0-beta.1',
        path: '/mcp/staff',
        eras: ['modern'],
        include: [OrdersModule],
        isGlobal: false,
        httpAuthenticator: new RefuseAll(),
        card: { name: 'com.example.staff/orders-admin', description: 'Refunds orders', remotes: STAFF_REMOTES },
      }),
      McpModule.forRoot({
        name: 'internal',
        version: '1.0.0',
        path: '/mcp/internal',
        include: [OrdersModule],
        isGlobal: false,
        card: false,
      }),
      OrdersModule,
    ],
  })
  class CardsModule {}
  return CardsModule;
}

const get = (url: string, headers: Record<string, string> = {}) => send(url, 'GET', undefined, headers);
const cors = (response: RawResponse) => ({
  origin: response.headers['access-control-allow-origin'],
  methods: response.headers['access-control-allow-methods'],
  headers: response.headers['access-control-allow-headers'],
  expose: response.headers['access-control-expose-headers'],
});
const CORS = { origin: '*', methods: 'GET', headers: 'Content-Type, If-None-Match', expose: 'ETag' };

describe.each(ADAPTERS)('the Server Card of each server (%s)', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(cardsModule(), adapter);
  });
  afterAll(() => server.close());

  it('each server serves its own card, which the v1 schema accepts', async () => {
    const orders = await get(`${server.origin}/mcp/server-card`);
    expect(orders.status).toBe(200);
    expect(schemaErrors(orders.json)).toEqual([]);
    expect(orders.json).toEqual({
      $schema: SCHEMA_URL,
      name: 'com.example/orders',
      version: '1.4.0',
      description: 'Finds orders and their parcels',
      title: 'Orders',
      websiteUrl: 'https://example.com/orders',
      repository: { url: 'https://github.com/example/orders', source: 'github', subfolder: 'servers/orders' },
      icons: [{ src: PNG, mimeType: 'image/png', sizes: ['1x1'] }],
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://mcp.example.com/mcp',
          supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
        },
      ],
      _meta: { 'com.example/region': 'eu' },
    });

    const staff = await get(`${server.origin}/mcp/staff/server-card`);
    expect(staff.status).toBe(200);
    expect(schemaErrors(staff.json)).toEqual([]);
    expect(staff.json).toEqual({
      $schema: SCHEMA_URL,
      name: 'com.example.staff/orders-admin',
      version: '2.0.0-beta.1',
      description: 'Refunds orders',
      remotes: STAFF_REMOTES,
    });
  });

  it('the schema check can fail: a card without a namespace is refused', async () => {
    const orders = await get(`${server.origin}/mcp/server-card`);
    expect(schemaErrors({ ...orders.json, name: 'orders' })).toEqual([
      expect.objectContaining({ instancePath: '/name', keyword: 'pattern' }),
    ]);
  });

  it('is served as application/mcp-server-card+json, cacheable, with CORS and a strong ETag per card', async () => {
    const orders = await get(`${server.origin}/mcp/server-card`, { accept: 'application/mcp-server-card+json' });
    expect(orders.headers['content-type']).toBe('application/mcp-server-card+json');
    expect(orders.headers['cache-control']).toBe('public, max-age=3600');
    expect(cors(orders)).toEqual(CORS);
    expect(orders.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const staff = await get(`${server.origin}/mcp/staff/server-card`);
    expect(staff.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(staff.headers['etag']).not.toBe(orders.headers['etag']);
    // The same document on every request: the ETag validates it.
    expect((await get(`${server.origin}/mcp/server-card`)).headers['etag']).toBe(orders.headers['etag']);
    const head = await send(`${server.origin}/mcp/server-card`, 'HEAD', undefined);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['etag']).toBe(orders.headers['etag']);
  });

  it('answers 304 without a body when If-None-Match names its ETag, weakly or in a list; 200 otherwise', async () => {
    const url = `${server.origin}/mcp/server-card`;
    const etag = (await get(url)).headers['etag'] as string;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const revalidated = await get(url, { 'if-none-match': ifNoneMatch });
      expect({ ifNoneMatch, status: revalidated.status, text: revalidated.text }).toEqual({
        ifNoneMatch,
        status: 304,
        text: '',
      });
      expect(revalidated.headers['etag']).toBe(etag);
      expect(revalidated.headers['cache-control']).toBe('public, max-age=3600');
      expect(cors(revalidated)).toEqual(CORS);
    }
    const changed = await get(url, { 'if-none-match': '"an-older-card"' });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ name: 'com.example/orders' });
    // Another server's ETag is not this card's.
    const staffEtag = (await get(`${server.origin}/mcp/staff/server-card`)).headers['etag'] as string;
    expect((await get(url, { 'if-none-match': staffEtag })).status).toBe(200);
  });

  it('answers a CORS preflight and a GET from any origin, where the MCP endpoint refuses that origin', async () => {
    const origin = { origin: 'https://registry.example.org' };
    const preflight = await send(`${server.origin}/mcp/server-card`, 'OPTIONS', undefined, {
      ...origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match',
    });
    expect(preflight.status).toBe(204);
    expect(cors(preflight)).toEqual(CORS);
    const card = await get(`${server.origin}/mcp/server-card`, origin);
    expect(card.status).toBe(200);
    expect(card.headers['access-control-allow-origin']).toBe('*');
    expect((await rpc(server.url, 'server/discover', {}, { headers: origin })).status).toBe(403);
  });

  it('needs no authentication: the staff server refuses MCP requests, not its card', async () => {
    const refused = await rpc(`${server.origin}/mcp/staff`, 'server/discover');
    expect(refused.status).toBe(401);
    const card = await get(`${server.origin}/mcp/staff/server-card`);
    expect(card.status).toBe(200);
    expect(card.json).toMatchObject({ name: 'com.example.staff/orders-admin' });
  });

  it('card: false serves none (404); other methods on a card are 405', async () => {
    expect((await get(`${server.origin}/mcp/internal/server-card`)).status).toBe(404);
    const posted = await send(
      `${server.origin}/mcp/server-card`,
      'POST',
      { hello: 'card' },
      {
        'content-type': 'application/json',
      },
    );
    expect(posted.status).toBe(405);
    expect(posted.headers['allow']).toBe('GET, HEAD, OPTIONS');
  });

  describe('the extension, declared by the servers that serve a card', () => {
    it('in the 2025-era initialize result (the official client with its default settings)', async () => {
      const orders = await connectLegacyClient(server.url);
      const internal = await connectLegacyClient(`${server.origin}/mcp/internal`);
      try {
        expect(orders.client.getServerCapabilities()?.extensions?.[EXTENSION]).toEqual({});
        expect(internal.client.getServerCapabilities()).toMatchObject({ tools: {} });
        expect(internal.client.getServerCapabilities()?.extensions?.[EXTENSION]).toBeUndefined();
      } finally {
        // Ending the sessions (DELETE) closes their GET streams, which would hold Fastify's close.
        for (const client of [orders, internal]) {
          await client.transport.terminateSession();
          await client.close();
        }
      }
    });

    it('in the 2026-07-28 server/discover result (the official client, pinned)', async () => {
      const orders = await connectOfficialClient(server.url);
      const internal = await connectOfficialClient(`${server.origin}/mcp/internal`);
      try {
        expect(orders.getServerCapabilities()?.extensions?.[EXTENSION]).toEqual({});
        expect(internal.getServerCapabilities()).toMatchObject({ tools: {} });
        expect(internal.getServerCapabilities()?.extensions?.[EXTENSION]).toBeUndefined();
      } finally {
        await orders.close();
        await internal.close();
      }
    });
  });
});

describe.each(ADAPTERS)("the sample's two Server Cards (%s)", (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(AppModule, adapter);
  });
  afterAll(() => server.close());

  it.each(['/mcp', '/mcp/staff'])('%s/server-card validates against the v1 schema', async (path) => {
    const card = await get(`${server.origin}${path}/server-card`);
    expect(card.status).toBe(200);
    expect(card.headers['content-type']).toBe('application/mcp-server-card+json');
    expect(schemaErrors(card.json)).toEqual([]);
    expect(card.json.name).toMatch(/^[a-z.]+\/[a-z-]+$/);
  });
});

/** Builds and starts an application from `options` (one server), to the point where it fails. */
async function startupError(...servers: McpModuleOptions[]): Promise<string> {
  @Module({ imports: [...servers.map((options, i) => McpModule.forRoot({ ...options, isGlobal: i === 0 }))] })
  class FailingModule {}
  try {
    const app = await NestFactory.create(FailingModule, new ExpressAdapter(), { logger: false, abortOnError: false });
    await app.init().finally(() => app.close());
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the application started');
}

describe('card options that cannot make a card', () => {
  it('fail at startup with every problem, naming the server by its path', async () => {
    const message = await startupError({
      name: 'orders',
      version: '1.0.0',
      title: 'T'.repeat(101),
      path: '/mcp/orders',
      card: {
        name: 'orders',
        description: 'D'.repeat(101),
        websiteUrl: 'ftp://example.com',
        baseUrl: 'https://mcp.example.com/?x=1',
        title: 'Orders',
      } as never,
    });
    const where = '(the Server Card of the server at /mcp/orders)';
    expect(message.split('\n')).toEqual([
      'Invalid McpModule options:',
      `  - \`card.title\` is not an option: the card takes the server's \`title\` ${where}`,
      `  - \`card.name\` must be a reverse-DNS namespace, a slash and the server's name, e.g. 'com.example/orders' (3 to 200 characters: letters, digits, '.' and '-', and '_' after the slash) ${where}`,
      `  - \`card.description\` must be what the server does, in 1 to 100 characters (it has 101) ${where}`,
      `  - \`card.websiteUrl\` must be an http(s) URL ${where}`,
      `  - \`card.baseUrl\` must be an http(s) URL without query or fragment, e.g. 'https://mcp.example.com' ${where}`,
      `  - \`title\` must be at most 100 characters: it is the card's title ${where}`,
    ]);
  });

  it.each([
    [{ description: 'Finds orders' }, '`card.name` is required'],
    [{ name: 'com.example/orders' }, '`card.description` is required'],
    [
      { name: 'com.example/orders', description: 'x', remotes: [{ type: 'websocket', url: 'wss://x' }] },
      "`card.remotes[0].type` must be 'streamable-http' or 'sse'",
    ],
    [
      {
        name: 'com.example/orders',
        description: 'x',
        remotes: [{ type: 'sse', url: 'https://x.example/sse', headers: [{ name: 'X-Key', isSecret: 'yes' }] }],
      },
      '`card.remotes[0].headers[0].isSecret` must be a boolean',
    ],
    [
      { name: 'com.example/orders', description: 'x', baseUrl: 'https://x.example', remotes: [] },
      '`card.remotes` must be a non-empty array',
    ],
    [
      {
        name: 'com.example/orders',
        description: 'x',
        repository: { url: 'https://x.example/r', source: 'github', subfolder: '../up' },
      },
      '`card.repository.subfolder` must be a relative path',
    ],
    ['orders', '`card` must be an object ({ name, description, … }) or false'],
  ])('%j: %s', async (card, problem) => {
    const message = await startupError({ name: 'orders', version: '1.0.0', card: card as never });
    expect(message).toContain(problem);
    expect(message).toContain('(the Server Card of the server at /mcp)');
  });

  it("a server on another server's card path fails at startup, naming both", async () => {
    const message = await startupError(
      { name: 'orders', version: '1.0.0', card: { name: 'com.example/orders', description: 'Finds orders' } },
      { name: 'shadow', version: '1.0.0', path: '/mcp/server-card' },
    );
    expect(message).toBe(
      '/mcp/server-card would be both the Server Card of the server at /mcp and the MCP endpoint of the server at ' +
        '/mcp/server-card: give one of them another `path`, or set `card: false`',
    );
  });
});
