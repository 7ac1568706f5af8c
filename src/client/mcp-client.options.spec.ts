import { resolveMcpClientOptions, type McpClientServerOptions } from './mcp-client.options.js';
import { retryAfterMs } from './retrying-fetch.js';

const resolve = (server: McpClientServerOptions) => resolveMcpClientOptions({ servers: { weather: server } });

describe('resolveMcpClientOptions', () => {
  it('applies the defaults', () => {
    expect(resolve({ url: 'https://weather.example.com/mcp' })).toEqual([
      expect.objectContaining({
        name: 'weather',
        url: new URL('https://weather.example.com/mcp'),
        timeoutMs: 30_000,
        retries: 2,
        maxRetryDelayMs: 5000,
        maxResponseBytes: 16 * 1024 * 1024,
        clientInfo: { name: 'mocapi-client', version: '1.0.0' },
        clientOptions: {},
        headers: {},
      }),
    ]);
  });

  it.each<[string, McpClientServerOptions | undefined, RegExp]>([
    ['neither url nor stdio', {}, /server "weather": needs exactly one of `url` and `stdio`/],
    ['both url and stdio', { url: 'http://a/mcp', stdio: { command: 'node' } }, /exactly one of `url` and `stdio`/],
    ['a url that is not one', { url: 'not a url' }, /`url` is not a URL/],
    ['a url of another scheme', { url: 'ftp://a/mcp' }, /must be http: or https:/],
    ['an empty command', { stdio: { command: '' } }, /`stdio.command` is required/],
    ['auth for stdio', { stdio: { command: 'node' }, auth: { token: 't' } }, /apply to `url` only/],
    [
      'two kinds of auth',
      { url: 'http://a/mcp', auth: { token: 't', provider: {} } as never },
      /exactly one of `token`/,
    ],
    [
      'client credentials without a secret',
      { url: 'http://a/mcp', auth: { clientCredentials: { tokenEndpoint: 'http://a/token', clientId: 'c' } } as never },
      /`auth.clientCredentials.clientSecret` is required/,
    ],
    [
      'token exchange on a 2025-era connection',
      {
        url: 'http://a/mcp',
        auth: {
          tokenExchange: { tokenEndpoint: 'http://a/token', clientId: 'c', clientSecret: 's', subjectToken: () => 't' },
        },
      },
      /`auth.tokenExchange` needs a 2026-07-28 connection/,
    ],
    ['a zero timeout', { url: 'http://a/mcp', timeoutMs: 0 }, /`timeoutMs` must be a positive integer/],
    ['too many retries', { url: 'http://a/mcp', retries: 11 }, /`retries` must be an integer from 0 to 10/],
    [
      'a zero response bound',
      { url: 'http://a/mcp', maxResponseBytes: 0 },
      /`maxResponseBytes` must be a positive integer/,
    ],
  ])('refuses %s at startup', (_label, server, message) => {
    expect(() => resolve(server!)).toThrow(message);
  });

  it('refuses a server name that is not a plain name, and options without servers', () => {
    expect(() => resolveMcpClientOptions({ servers: { 'a b': { url: 'http://a/mcp' } } })).toThrow(/server "a b"/);
    expect(() => resolveMcpClientOptions({} as never)).toThrow(/needs `servers`/);
  });
});

describe('retryAfterMs', () => {
  it('reads delta seconds and HTTP dates, and waits 1 s without a usable header', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs(new Date(10_000 + 3000).toUTCString(), 10_000)).toBe(3000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
  });
});
