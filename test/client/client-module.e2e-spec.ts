import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  InjectMcpClient,
  McpClientConnection,
  McpClientError,
  McpClientModule,
  McpClientRegistry,
  type McpClientServerOptions,
} from '../../src/client/index.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { ForecastService, startForecastApp } from './support/forecast.fixture.js';
import { startRecordingProxy } from './support/http-proxy.js';
import { startSdkServer, type SdkServer } from './support/sdk-server.js';
import { ForgetfulUpstreamModule, UpstreamModule } from './support/upstream.fixture.js';
import { freePort } from '../support/free-port.js';

const PIN_2026 = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

const ERAS: ReadonlyArray<[string, Partial<McpClientServerOptions>, 'legacy' | 'modern']> = [
  ['the default settings (2025 era)', {}, 'legacy'],
  ['2026-07-28 pinned', { clientOptions: PIN_2026 }, 'modern'],
];

describe.each(ADAPTERS)('McpClientModule: a Nest service calls our own MCP server (%s)', (adapter) => {
  let upstream: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(UpstreamModule, adapter);
  });
  afterAll(async () => {
    await upstream?.close();
  });

  describe.each(ERAS)('with %s', (_label, options, era) => {
    let app: INestApplicationContext;
    let forecast: ForecastService;

    beforeAll(async () => {
      ({ app, forecast } = await startForecastApp({ url: upstream.url, ...options }));
    });
    afterAll(async () => {
      await app?.close();
    });

    it('lists the tools and calls one, in the era the official client negotiated', async () => {
      expect(await forecast.toolNames()).toEqual(['add', 'sleep']);
      expect(await forecast.callText('add', { a: 20, b: 22 })).toBe('42');
      const client = await forecast.upstream.client();
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getServerVersion()).toMatchObject({ name: 'upstream', version: '2.0.0' });
    });

    it('reuses one connection for every call', async () => {
      const first = await forecast.upstream.client();
      await forecast.callText('add', { a: 1, b: 2 });
      expect(await forecast.upstream.client()).toBe(first);
      expect(app.get(McpClientRegistry).get('upstream')).toBe(forecast.upstream);
    });

    it('passes an error the server answered through unchanged (not an McpClientError)', async () => {
      const client = await forecast.upstream.client();
      const result = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: unknown) => error);
      // An unknown tool is the server's answer, -32602, which reaches the caller as the official client raised it.
      expect(result).not.toBeInstanceOf(McpClientError);
      expect(result).toMatchObject({ code: -32602 });
    });
  });

  it('connects lazily: booting the app sends nothing to the server', async () => {
    const proxy = await startRecordingProxy(upstream.url);
    const { app, forecast } = await startForecastApp({ url: proxy.url });
    try {
      expect(proxy.seen).toEqual([]);
      expect(await forecast.callText('add', { a: 2, b: 3 })).toBe('5');
      expect(proxy.seen.length).toBeGreaterThan(0);
    } finally {
      await app.close();
      await proxy.close();
    }
  });

  it('ends the 2025-era session (DELETE) and its stream when the application shuts down', async () => {
    const proxy = await startRecordingProxy(upstream.url);
    const { app, forecast } = await startForecastApp({ url: proxy.url });
    try {
      await forecast.callText('add', { a: 2, b: 3 });
      const client = await forecast.upstream.client();
      const session = proxy.seen.find((request) => request.session)?.session;
      expect(session).toEqual(expect.any(String));
      await app.close();
      expect(proxy.seen).toContainEqual({ method: 'DELETE', session });
      await expect(forecast.upstream.client()).rejects.toMatchObject({ failure: 'closed', server: 'upstream' });
      await expect(client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).rejects.toThrow();
      await waitFor(() => proxy.open() === 0);
    } finally {
      await app.close();
      await proxy.close();
    }
  });
});

describe("McpClientConnection.open(): a connection of the caller's own", () => {
  it('is a new session each time, not the shared one, and is ended at shutdown if still open', async () => {
    const upstream = await startApp(UpstreamModule, 'express');
    const proxy = await startRecordingProxy(upstream.url);
    const { app, forecast } = await startForecastApp({ url: proxy.url });
    try {
      const shared = await forecast.upstream.client();
      const own = await forecast.upstream.open();
      const another = await forecast.upstream.open();
      expect(own).not.toBe(shared);
      expect(another).not.toBe(own);
      expect(await forecast.upstream.client()).toBe(shared);
      expect(await own.callTool({ name: 'add', arguments: { a: 2, b: 2 } })).toMatchObject({
        content: [{ type: 'text', text: '4' }],
      });
      const sessionOf = (client: typeof shared): string | undefined =>
        (client.transport as { sessionId?: string } | undefined)?.sessionId;
      const [sharedSession, ownSession, anotherSession] = [sessionOf(shared), sessionOf(own), sessionOf(another)];
      expect(new Set([sharedSession, ownSession, anotherSession]).size).toBe(3);
      await another.close();
      await app.close();
      // The shared session and the one still open are ended; the one its caller closed is the caller's business.
      const deleted = proxy.seen.filter((request) => request.method === 'DELETE').map((request) => request.session);
      expect(deleted.sort()).toEqual([sharedSession, ownSession].sort());
      await expect(forecast.upstream.open()).rejects.toMatchObject({ failure: 'closed' });
    } finally {
      await app.close();
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('McpClientModule: a 2025-era session the server forgot', () => {
  it('fails the call that finds out (unreachable), and the next call opens a new session', async () => {
    const port = await freePort();
    let upstream = await startApp(ForgetfulUpstreamModule, 'express', { port, logger: false });
    const { app, forecast } = await startForecastApp({ url: upstream.url });
    try {
      expect(await forecast.callText('add', { a: 1, b: 1 })).toBe('2');
      const first = await forecast.upstream.client();
      await upstream.close();
      // Let the client see its kept-alive sockets to the old process close.
      await new Promise((resolve) => setTimeout(resolve, 200));
      upstream = await startApp(ForgetfulUpstreamModule, 'express', { port, logger: false });
      const error = await forecast.callText('add', { a: 1, b: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(error).toMatchObject({ failure: 'unreachable', server: 'upstream' });
      expect((error as Error).message).toContain('the server no longer knows this session (HTTP 404)');
      expect(await forecast.callText('add', { a: 1, b: 2 })).toBe('3');
      expect(await forecast.upstream.client()).not.toBe(first);
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});

describe('McpClientModule.forRootAsync', () => {
  it('takes its servers from a factory; `clients` names the ones @InjectMcpClient serves', async () => {
    const upstream = await startApp(UpstreamModule, 'express');
    @Injectable()
    class Adder {
      constructor(@InjectMcpClient('adder') readonly adder: McpClientConnection) {}
    }
    @Module({
      imports: [
        McpClientModule.forRootAsync({
          clients: ['adder'],
          useFactory: async () => ({ servers: { adder: { url: upstream.url }, other: { url: upstream.url } } }),
        }),
      ],
      providers: [Adder],
    })
    class AsyncAppModule {}
    const app = await NestFactory.createApplicationContext(AsyncAppModule, { logger: false });
    try {
      const client = await app.get(Adder).adder.client();
      expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).toMatchObject({
        content: [{ type: 'text', text: '2' }],
      });
      const registry = app.get(McpClientRegistry);
      expect(registry.names).toEqual(['adder', 'other']);
      expect(registry.get('adder')).toBe(app.get(Adder).adder);
      expect(() => registry.get('missing')).toThrow('McpClientModule: no server "missing" (configured: adder, other)');
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});

describe('McpClientModule: a Nest service calls a server built on the official server SDK', () => {
  let sdk: SdkServer;

  beforeAll(async () => {
    sdk = await startSdkServer();
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it.each(ERAS)('with %s', async (_label, options, era) => {
    const { app, forecast } = await startForecastApp({ url: sdk.url, ...options });
    try {
      expect(await forecast.toolNames()).toEqual(['multiply']);
      expect(await forecast.callText('multiply', { a: 6, b: 7 })).toBe('42');
      const client = await forecast.upstream.client();
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getServerVersion()).toMatchObject({ name: 'sdk-upstream', version: '3.1.4' });
    } finally {
      await app.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
