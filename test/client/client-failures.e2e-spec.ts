import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClientError } from '../../src/client/index.js';
import { freePort } from '../support/free-port.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { startForecastApp } from './support/forecast.fixture.js';
import { startRecordingProxy, type RecordingProxy } from './support/http-proxy.js';
import { UpstreamModule } from './support/upstream.fixture.js';

const PIN_2026 = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

/** A server on 127.0.0.1 that answers every request with `answer`. */
async function startFakeServer(
  answer: (res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

const stop = (server: Server): Promise<unknown> => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
};

describe('McpClientModule: an upstream that cannot answer gives a clear McpClientError', () => {
  let upstream: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(UpstreamModule, 'fastify');
  });
  afterAll(async () => {
    await upstream?.close();
  });

  it.each([
    ['the default settings', {}],
    ['2026-07-28 pinned', { clientOptions: PIN_2026 }],
  ])('down (nothing listens), with %s: unreachable, at once; the next call tries again', async (_label, options) => {
    const port = await freePort();
    const { app, forecast } = await startForecastApp({ url: `http://127.0.0.1:${port}/mcp`, ...options });
    try {
      const started = Date.now();
      const error = await forecast.callText('add', { a: 1, b: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ server: 'upstream', failure: 'unreachable' });
      expect((error as Error).message).toMatch(/^MCP server "upstream": \S+: cannot connect \(ECONNREFUSED\)/);
      expect(Date.now() - started).toBeLessThan(2000);
      // The failed attempt is not kept: once the server is up, the same handle connects.
      const late = await startApp(UpstreamModule, 'express', { port });
      try {
        expect(await forecast.callText('add', { a: 1, b: 2 })).toBe('3');
      } finally {
        await late.close();
      }
    } finally {
      await app.close();
    }
  });

  it('slow (a tool that answers after 1.5 s, timeoutMs 300): timeout, within the bound', async () => {
    // A server of its own: the call it is still running when the client gives up ends with the test.
    const slow = await startApp(UpstreamModule, 'express');
    const { app, forecast } = await startForecastApp({ url: slow.url, timeoutMs: 300 });
    try {
      expect(await forecast.callText('sleep', { ms: 0 })).toBe('slept 0 ms');
      const started = Date.now();
      const error = await forecast.callText('sleep', { ms: 1500 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({
        failure: 'timeout',
        message: 'MCP server "upstream": tools/call: no answer within 300 ms',
      });
      expect(Date.now() - started).toBeLessThan(1200);
      // A call may still ask for longer itself.
      const client = await forecast.upstream.client();
      const result = await client.callTool({ name: 'sleep', arguments: { ms: 500 } }, { timeout: 2000 });
      expect(result.content).toEqual([{ type: 'text', text: 'slept 500 ms' }]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      await app.close();
      await slow.close();
    }
  });

  it('silent (accepts the connection, never answers), 2026-07-28 pinned: timeout while connecting', async () => {
    const fake = await startFakeServer(() => undefined);
    const { app, forecast } = await startForecastApp({ url: fake.url, timeoutMs: 300, clientOptions: PIN_2026 });
    try {
      const error = await forecast.callText('add', { a: 1, b: 2 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ failure: 'timeout', server: 'upstream' });
    } finally {
      await app.close();
      await stop(fake.server);
    }
  });

  it.each([
    ['JSON that is not JSON-RPC', 'application/json', '{"hello":1}'],
    ['an HTML page', 'text/html', '<html><body>Welcome to nginx!</body></html>'],
  ])('answering garbage (%s): invalid-response', async (_label, type, body) => {
    const fake = await startFakeServer((res) => res.writeHead(200, { 'content-type': type }).end(body));
    const { app, forecast } = await startForecastApp({ url: fake.url });
    try {
      const error = await forecast.callText('add', { a: 1, b: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ failure: 'invalid-response', server: 'upstream' });
      expect((error as Error).message).toMatch(/^MCP server "upstream": \S+: the answer is not a valid MCP response/);
    } finally {
      await app.close();
      await stop(fake.server);
    }
  });

  it('a stdio child writing a line longer than maxResponseBytes: its connection closes at once, no timeout', async () => {
    const flood = "process.stdin.resume(); process.stdout.write('x'.repeat(1024 * 1024))";
    const { app, forecast } = await startForecastApp({
      stdio: { command: process.execPath, args: ['-e', flood], stderr: 'ignore' },
      maxResponseBytes: 65_536,
      timeoutMs: 5000,
    });
    try {
      const started = Date.now();
      const error = await forecast.callText('add', { a: 1, b: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ server: 'upstream', failure: 'unreachable' });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await app.close();
    }
  });

  describe('through a recording proxy', () => {
    let proxy: RecordingProxy;

    beforeEach(async () => {
      proxy = await startRecordingProxy(upstream.url);
    });
    afterEach(async () => {
      await proxy.close();
    });

    describe('the transient error (HTTP 503, Retry-After, -32051)', () => {
      it.each([
        ['the default settings', {}],
        ['2026-07-28 pinned', { clientOptions: PIN_2026 }],
      ])('is retried after Retry-After, at most `retries` times, with %s', async (_label, options) => {
        const { app, forecast } = await startForecastApp({ url: proxy.url, retries: 2, ...options });
        try {
          await forecast.upstream.client();
          proxy.failNext(2, '1');
          const posts = (): number => proxy.seen.filter((request) => request.method === 'POST').length;
          const before = posts();
          const started = Date.now();
          expect(await forecast.callText('add', { a: 4, b: 5 })).toBe('9');
          expect(posts() - before).toBe(3);
          expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
        } finally {
          await app.close();
        }
      });

      it('fails as unavailable, with the server retryAfterMs, once the retries are spent', async () => {
        const { app, forecast } = await startForecastApp({ url: proxy.url, retries: 1 });
        try {
          await forecast.upstream.client();
          proxy.failNext(5, '0');
          const error = await forecast.callText('add', { a: 4, b: 5 }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(McpClientError);
          expect(error).toMatchObject({ failure: 'unavailable', retryAfterMs: 0, server: 'upstream' });
          expect(proxy.seen.filter((request) => request.method === 'POST').length).toBeGreaterThanOrEqual(2);
        } finally {
          await app.close();
        }
      });

      it('is not waited for when Retry-After exceeds maxRetryDelayMs', async () => {
        const { app, forecast } = await startForecastApp({ url: proxy.url, retries: 2, maxRetryDelayMs: 1000 });
        try {
          await forecast.upstream.client();
          proxy.failNext(1, '30');
          const started = Date.now();
          const error = await forecast.callText('add', { a: 4, b: 5 }).catch((e: unknown) => e);
          expect(error).toMatchObject({ failure: 'unavailable', retryAfterMs: 30_000 });
          expect(Date.now() - started).toBeLessThan(1000);
        } finally {
          await app.close();
        }
      });
    });

    describe('an answer over maxResponseBytes', () => {
      it.each([
        ['SSE', 'the default settings', 'sse', {}],
        ['SSE', '2026-07-28 pinned', 'sse', { clientOptions: PIN_2026 }],
        ['JSON', 'the default settings', 'json', {}],
        ['JSON', '2026-07-28 pinned', 'json', { clientOptions: PIN_2026 }],
      ] as const)(
        '(20 MB of %s, %s): too-large at once, the rest unread; the connection serves the next call',
        async (_type, _label, as, options) => {
          const { app, forecast } = await startForecastApp({ url: proxy.url, maxResponseBytes: 65_536, ...options });
          try {
            await forecast.upstream.client();
            proxy.flood('add', 20 * 1024 * 1024, as);
            const started = Date.now();
            const error = await forecast.callText('add', { a: 1, b: 2 }).catch((e: unknown) => e);
            expect(error).toBeInstanceOf(McpClientError);
            expect(error).toMatchObject({
              server: 'upstream',
              failure: 'too-large',
              message: 'MCP server "upstream": tools/call: the answer is larger than 65536 bytes (maxResponseBytes)',
            });
            expect(Date.now() - started).toBeLessThan(2000);
            const [flood] = proxy.floods;
            await flood!.closed;
            expect(flood!.finished).toBe(false);
            expect(flood!.written).toBeLessThan(5 * 1024 * 1024);
            expect(await forecast.callText('sleep', { ms: 0 })).toBe('slept 0 ms');
          } finally {
            await app.close();
          }
        },
      );
    });
  });
});
