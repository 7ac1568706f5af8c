import { resolveMcpGatewayOptions } from './mcp-gateway.options.js';

describe('resolveMcpGatewayOptions', () => {
  it('applies the defaults', () => {
    const { upstreams, checkIntervalMs } = resolveMcpGatewayOptions({
      upstreams: [{ client: 'weather', prefix: 'wx' }],
    });
    expect(checkIntervalMs).toBe(10_000);
    expect(upstreams).toEqual([
      {
        name: 'weather',
        client: 'weather',
        prefix: 'wx',
        exclude: new Set(),
        timeoutMs: 30_000,
        maxConcurrentCalls: 32,
        maxResultChars: 1_000_000,
        answerTimeoutMs: 300_000,
      },
    ]);
  });

  it('keeps include and exclude as sets', () => {
    const [upstream] = resolveMcpGatewayOptions({
      upstreams: [{ client: 'a', prefix: 'a', include: ['x', 'y'], exclude: ['y'] }],
    }).upstreams;
    expect(upstream!.include).toEqual(new Set(['x', 'y']));
    expect(upstream!.exclude).toEqual(new Set(['y']));
  });

  it.each([
    [{ upstreams: 'no' }, /needs `upstreams`/],
    [{ upstreams: [{ prefix: 'a' }] }, /upstreams\[0\]: `client`/],
    [{ upstreams: [{ client: 'a', prefix: 'a_b' }] }, /`prefix` is 1 to 32 letters/],
    [
      {
        upstreams: [
          { client: 'a', prefix: 'p' },
          { client: 'b', prefix: 'p' },
        ],
      },
      /upstreams\[1\]: the prefix "p" is used twice/,
    ],
    [{ upstreams: [{ client: 'a', prefix: 'a', timeoutMs: 0 }] }, /`timeoutMs` must be a positive integer/],
    [{ upstreams: [{ client: 'a', prefix: 'a', maxConcurrentCalls: 1.5 }] }, /`maxConcurrentCalls`/],
    [{ upstreams: [], checkIntervalMs: -1 }, /`checkIntervalMs`/],
  ])('refuses %j', (options, message) => {
    expect(() => resolveMcpGatewayOptions(options as never)).toThrow(message);
  });
});
