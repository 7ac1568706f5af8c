import { resolveServerOptions } from '../../core/mcp-server.options.js';
import { resolveServerCard } from './server-card.options.js';
import { ServerCardEndpoint } from './server-card-endpoint.js';

const CARD = { name: 'com.example/orders', description: 'Finds orders' };

/** The server section as resolveMcpOptions makes it from `options`. */
function server(options: Record<string, unknown> = {}) {
  const problems: string[] = [];
  const resolved = resolveServerOptions({ name: 'orders', version: '1.0.0', ...options }, problems);
  expect(problems).toEqual([]);
  return resolved;
}

function resolve(card: unknown, options: Record<string, unknown> = {}) {
  const problems: string[] = [];
  const resolved = resolveServerCard(card, server(options), problems);
  return { card: resolved, problems };
}

describe('resolveServerCard', () => {
  it.each([undefined, false])('serves no card for %p', (card) => {
    expect(resolve(card)).toEqual({ card: undefined, problems: [] });
  });

  it("the remote of baseUrl is the server's path there, with the versions of the eras it serves", () => {
    const both = resolve({ ...CARD, baseUrl: 'https://mcp.example.com//' }, { path: '/mcp/orders/' }).card;
    expect(both?.remotes).toEqual([
      {
        type: 'streamable-http',
        url: 'https://mcp.example.com/mcp/orders',
        supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      },
    ]);
    const modern = resolve({ ...CARD, baseUrl: 'https://example.com/api' }, { eras: ['modern'] }).card;
    expect(modern?.remotes).toEqual([
      { type: 'streamable-http', url: 'https://example.com/api/mcp', supportedProtocolVersions: ['2026-07-28'] },
    ]);
  });

  it('leaves out what is not set (an empty title too), and freezes the card, remotes included', () => {
    const remotes = [{ type: 'sse', url: '{base}/sse', variables: { base: { default: 'https://x.example' } } }];
    const { card } = resolve({ ...CARD, remotes }, { title: '' });
    expect(card).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'com.example/orders',
      version: '1.0.0',
      description: 'Finds orders',
      remotes,
    });
    expect(Object.isFrozen(card)).toBe(true);
    expect(Object.isFrozen(card?.remotes?.[0]?.variables?.['base'])).toBe(true);
    // A copy: the application's object may change later without changing the card.
    remotes[0]!.url = 'https://changed.example';
    expect(card?.remotes?.[0]?.url).toBe('{base}/sse');
  });

  it('counts characters, not UTF-16 units, as the schema does', () => {
    expect(resolve({ ...CARD, description: '🍽'.repeat(100) }).problems).toEqual([]);
    expect(resolve({ ...CARD, description: '🍽'.repeat(101) }).problems).toEqual([
      '`card.description` must be what the server does, in 1 to 100 characters (it has 101) (the Server Card of the server at /mcp)',
    ]);
  });

  it.each([
    ['a name with two slashes', { name: 'com.example/orders/eu' }, '`card.name` must be'],
    ['a blank description', { description: '  ' }, '`card.description` must be'],
    ['a repository without source', { repository: { url: 'https://x.example/r' } }, '`card.repository.source`'],
    [
      'an unknown repository field',
      { repository: { url: 'https://x.example/r', source: 'git', ref: 'main' } },
      'not ref',
    ],
    ['a remote URL with spaces', { remotes: [{ type: 'sse', url: 'https://x.example/a b' }] }, '`card.remotes[0].url`'],
    ['_meta that JSON cannot carry', { _meta: { n: 1n } }, '`card._meta` must be an object of JSON values'],
    ['a card field of the server', { icons: [] }, "`card.icons` is not an option: the card takes the server's `icons`"],
    ['an unknown field', { tittle: 'Orders' }, '`card.tittle` is not an option of the Server Card'],
  ])('refuses %s', (_label, change, problem) => {
    const { card, problems } = resolve({ ...CARD, ...change });
    expect(card).toBeUndefined();
    expect(problems).toEqual([expect.stringContaining(problem)]);
  });

  it('refuses a server version the card cannot carry', () => {
    expect(resolve(CARD, { version: '1'.repeat(256) }).problems).toEqual([
      "`version` must be at most 255 characters: it is the card's version (the Server Card of the server at /mcp)",
    ]);
  });
});

describe('ServerCardEndpoint', () => {
  it("sits beside the server's endpoint, also at the root", () => {
    const card = resolve(CARD).card!;
    expect(new ServerCardEndpoint(card, '/mcp/orders').path).toBe('/mcp/orders/server-card');
    expect(new ServerCardEndpoint(card, '/').path).toBe('/server-card');
  });
});
