import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type McpExchange, McpModule, McpResource, McpTool } from '../../src/index.js';
import { call, stateIn } from '../hostile/legacy-session.probe.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { rpc } from '../support/raw-mcp.js';
import { ADAPTERS, type AdapterKind, type RunningApp, startApp } from '../support/start-app.js';

// Anonymous callers are keyed by their client address for every per-caller bound. Every test
// client connects from 127.0.0.1 (the "proxy"); each sends the X-Forwarded-For a proxy would add.
// With the adapter's trust-proxy setting the forwarded address is the caller; without it the header
// is ignored and every client is 127.0.0.1.

const ALICE = '203.0.113.1';
const BOB = '203.0.113.2';
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const forwardedFor = (address: string) => ({ 'x-forwarded-for': address });

@Injectable()
class AddressTools {
  @McpTool({ name: 'whoami', description: 'Answers the client address its request carries' })
  whoami(_args: unknown, exchange: McpExchange): string {
    const { transport } = exchange;
    return transport.kind === 'http' ? String(transport.clientAddress) : transport.kind;
  }

  @McpTool({ name: 'report', description: 'Runs as a task and finishes at once', taskSupport: 'required' })
  report(): string {
    return 'done';
  }

  @McpResource({ uri: 'legacy://note', name: 'note', description: 'A note', mimeType: 'text/plain' })
  note(): string {
    return 'a note';
  }
}

function addressModule(): DynamicModule {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'client-address',
        version: '1.0.0',
        mrtr: { secrets: ['client-address-secret-0123456789abcdef0123'] },
        tasks: { ttlMs: 60_000, pollIntervalMs: 50 },
        // Two 2025-era session states per caller, each holding one subscription (stateIn's probe).
        limits: { maxSessionsPerCaller: 2, maxSubscriptionsPerSession: 1 },
      }),
    ],
    providers: [AddressTools],
  })
  class ClientAddressModule {}
  return { module: ClientAddressModule };
}

/** The app as a proxy's upstream: Express `trust proxy` / Fastify `trustProxy` set to loopback, or neither. */
function startBehindProxy(adapter: AdapterKind, trusted: boolean): Promise<RunningApp> {
  if (!trusted) return startApp(addressModule(), adapter);
  return adapter === 'express'
    ? startApp<NestExpressApplication>(addressModule(), adapter, {
        configure: (app) => app.set('trust proxy', 'loopback'),
      })
    : startApp(addressModule(), adapter, { fastify: { trustProxy: 'loopback' } });
}

/** The address a 2026-07-28 tool call sees, sent with `headers`. */
async function whoami(url: string, headers: Record<string, string>): Promise<unknown> {
  const reply = await rpc(url, 'tools/call', { name: 'whoami', arguments: {} }, { headers });
  expect(reply.status).toBe(200);
  return reply.json.result?.content;
}

/** The address a 2025-era session's tool call sees (its requests all carry `headers`). */
async function legacyWhoami(url: string, headers: Record<string, string>): Promise<unknown> {
  const wire = await LegacyWire.open(url, {}, headers);
  const reply = await call(wire, 'who', 'tools/call', { name: 'whoami', arguments: {} });
  expect(reply.status).toBe(200);
  return reply.json.result?.content;
}

const text = (address: string) => [{ type: 'text', text: address }];

/** Starts `report` as a task from `address`; resolves to its id. */
async function taskFrom(url: string, address: string): Promise<string> {
  const reply = await rpc(
    url,
    'tools/call',
    { name: 'report', arguments: {} },
    { capabilities: TASKS, headers: forwardedFor(address) },
  );
  expect(reply.json.result).toMatchObject({ resultType: 'task' });
  return reply.json.result.taskId as string;
}

/** tasks/get of `taskId` from `address`: the task's status, or `unknown` for -32602 (not this caller's). */
async function taskSeenFrom(url: string, taskId: string, address: string): Promise<string> {
  const reply = await rpc(url, 'tasks/get', { taskId }, { capabilities: TASKS, headers: forwardedFor(address) });
  if (reply.json.error?.code === -32602) return 'unknown';
  expect(reply.json.error).toBeUndefined();
  return String(reply.json.result.status);
}

/** A 2025-era session from `address` holding state (one subscription). */
async function sessionFrom(url: string, address: string): Promise<LegacyWire> {
  const wire = await LegacyWire.open(url, {}, forwardedFor(address));
  const r = await call(wire, 'sub', 'resources/subscribe', { uri: 'legacy://note' });
  expect(r.json).toEqual({ jsonrpc: '2.0', id: 'sub', result: {} });
  return wire;
}

/** Alice opens one session, then Bob two: what is left of Alice's (Bob's and hers count apart, or together). */
async function aliceSessionAfterBobsTwo(url: string): Promise<string> {
  const alice = await sessionFrom(url, ALICE);
  await sessionFrom(url, BOB);
  await sessionFrom(url, BOB);
  return stateIn(alice);
}

describe.each(ADAPTERS)('the client address of anonymous callers, on %s', (adapter) => {
  describe('behind a trusted proxy', () => {
    let server: RunningApp;
    beforeAll(async () => (server = await startBehindProxy(adapter, true)));
    afterAll(() => server.close());

    it('is the forwarded address in both eras; the socket’s without the header', async () => {
      expect(await whoami(server.url, forwardedFor(ALICE))).toEqual(text(ALICE));
      expect(await legacyWhoami(server.url, forwardedFor(BOB))).toEqual(text(BOB));
      // A hop the client wrote itself in front of the proxy's is not trusted: the proxy's entry counts.
      expect(await whoami(server.url, forwardedFor(`198.51.100.9, ${ALICE}`))).toEqual(text(ALICE));
      expect(await whoami(server.url, {})).toEqual(text('127.0.0.1'));
    });

    it("keeps a task to its caller's forwarded address", async () => {
      const taskId = await taskFrom(server.url, ALICE);
      expect(await taskSeenFrom(server.url, taskId, BOB)).toBe('unknown');
      expect(await taskSeenFrom(server.url, taskId, ALICE)).not.toBe('unknown');
    });

    it('counts 2025-era sessions per forwarded address (limits.maxSessionsPerCaller)', async () => {
      expect(await aliceSessionAfterBobsTwo(server.url)).toBe('kept');
    });
  });

  describe('without a proxy setting', () => {
    let server: RunningApp;
    beforeAll(async () => (server = await startBehindProxy(adapter, false)));
    afterAll(() => server.close());

    it('ignores X-Forwarded-For: the address is the socket’s in both eras', async () => {
      expect(await whoami(server.url, forwardedFor(ALICE))).toEqual(text('127.0.0.1'));
      expect(await legacyWhoami(server.url, forwardedFor(BOB))).toEqual(text('127.0.0.1'));
    });

    it('lets every client behind the proxy share its tasks', async () => {
      const taskId = await taskFrom(server.url, ALICE);
      expect(await taskSeenFrom(server.url, taskId, BOB)).not.toBe('unknown');
    });

    it('counts every client behind the proxy as one caller for 2025-era sessions', async () => {
      expect(await aliceSessionAfterBobsTwo(server.url)).toBe('gone');
    });
  });
});
