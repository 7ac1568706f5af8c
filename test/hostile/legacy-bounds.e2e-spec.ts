import { request } from 'node:http';
import { LegacySessionCodec } from '../../src/legacy/legacy-session-codec.js';
import { LegacySessions } from '../../src/legacy/legacy-sessions.js';
import { LocalSessionBackplane } from '../../src/legacy/local-session-backplane.js';
import { HeaderPrincipalSource, legacyModule } from '../legacy/legacy.fixtures.js';
import { initialize, LEGACY_VERSION, LegacyWire } from '../legacy/legacy-wire.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { post, send, type RawResponse } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { call, openGetStream, sessionWithState, stateIn } from './legacy-session.probe.js';
import type { McpModuleOptions } from '../../src/index.js';

const STACK = /\n\s+at\s|node_modules|\.ts:\d+/;

/** A real app with the legacy fixtures, callers told apart by `x-user`, and a log that is checked. */
function boundedApp(adapter: (typeof ADAPTERS)[number], options: Partial<McpModuleOptions>) {
  const logger = new CapturingLogger();
  let server!: RunningApp;
  beforeAll(async () => {
    server = await startMrtrApp(legacyModule({ principalSource: new HeaderPrincipalSource(), ...options }), adapter, {
      logger,
    });
  });
  afterAll(() => server.close());
  afterEach(() => {
    // Nothing a client does here may produce an ERROR line, or a stack anywhere in the log.
    expect(logger.errors).toEqual([]);
    expect(logger.warnings.join('\n')).not.toMatch(STACK);
  });
  return { server: () => server };
}

function expectLimit(r: RawResponse, id: string | number, limit: string, max: number, code = -32602): void {
  expect(r.status).toBe(200);
  expect(r.json).toMatchObject({ jsonrpc: '2.0', id, error: { code, data: { limit, max } } });
  expect(r.json.error.message).toContain(`limits.${limit}`);
}

describe.each(ADAPTERS)('2025-era sessions under hostile clients, on %s', (adapter) => {
  describe('subscriptions, pushed questions, refusals and HEAD', () => {
    const MAX_URI = 256;
    const MAX_SUBS = 5;
    const app = boundedApp(adapter, {
      limits: { maxUriLength: MAX_URI, maxSubscriptionsPerSession: MAX_SUBS, maxPendingRequestsPerSession: 2 },
      // A call that should have been refused but asks instead gives up soon, so the test stays short.
      legacy: { inputRoundTimeoutMs: 3000 },
    });
    const url = () => app.server().url;
    const stateOf = (wire: LegacyWire) => {
      const claims = app.server().app.get(LegacySessionCodec).open(wire.sessionId)!;
      return app.server().app.get(LegacySessions).state(claims.id);
    };

    it('a URI at limits.maxUriLength is accepted; one character more → -32602 with the id and data.limit', async () => {
      const wire = await LegacyWire.open(url());
      const atLimit = `legacy://${'a'.repeat(MAX_URI - 'legacy://'.length)}`;
      expect((await call(wire, 'at', 'resources/subscribe', { uri: atLimit })).json).toEqual({
        jsonrpc: '2.0',
        id: 'at',
        result: {},
      });
      expectLimit(
        await call(wire, 'over', 'resources/subscribe', { uri: `${atLimit}a` }),
        'over',
        'maxUriLength',
        MAX_URI,
      );
      expect([...stateOf(wire).subscriptions]).toEqual([atLimit]);
    });

    it('past limits.maxSubscriptionsPerSession → -32602 with the id; a repeated URI is not counted twice', async () => {
      const wire = await LegacyWire.open(url());
      for (let i = 0; i < MAX_SUBS; i++) {
        expect((await call(wire, i, 'resources/subscribe', { uri: `legacy://r${i}` })).json.result).toEqual({});
      }
      expect((await call(wire, 'again', 'resources/subscribe', { uri: 'legacy://r0' })).json.result).toEqual({});
      const r = await call(wire, 77, 'resources/subscribe', { uri: 'legacy://one-more' });
      expectLimit(r, 77, 'maxSubscriptionsPerSession', MAX_SUBS);
      expect((await call(wire, 'un', 'resources/unsubscribe', { uri: 'legacy://r1' })).json.result).toEqual({});
      expect((await call(wire, 'now', 'resources/subscribe', { uri: 'legacy://one-more' })).json.result).toEqual({});
    });

    it('the subscribe attack (30 huge URIs, 200 distinct URIs): all refused with their ids, the session holds the bound, the server serves', async () => {
      const wire = await LegacyWire.open(url());
      // As large as the adapter's body parser lets through: 1 MB on Fastify, under Nest's 100 KB JSON parser on Express.
      const huge = `legacy://${'x'.repeat(adapter === 'fastify' ? 1024 * 1024 : 90 * 1024)}`;
      for (let i = 0; i < 30; i++) {
        expectLimit(
          await call(wire, `huge-${i}`, 'resources/subscribe', { uri: `${huge}${i}` }),
          `huge-${i}`,
          'maxUriLength',
          MAX_URI,
        );
      }
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          call(wire, `many-${i}`, 'resources/subscribe', { uri: `legacy://m${i}` }),
        ),
      );
      answers.forEach((r, i) => expect(r.json.id).toBe(`many-${i}`));
      expect(answers.filter((r) => r.json.result !== undefined)).toHaveLength(MAX_SUBS);
      for (const r of answers.filter((a) => a.json.error !== undefined)) {
        expectLimit(r, r.json.id, 'maxSubscriptionsPerSession', MAX_SUBS);
      }
      // What the session keeps after the attack: the bound, never the attack.
      const kept = [...stateOf(wire).subscriptions];
      expect(kept).toHaveLength(MAX_SUBS);
      expect(kept.join('').length).toBeLessThanOrEqual(MAX_SUBS * MAX_URI);
      const other = await LegacyWire.open(url());
      expect((await call(other, 'alive', 'ping')).json).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
    });

    it('pushed questions past limits.maxPendingRequestsPerSession → a JSON-RPC error with the call id; the waiting calls complete', async () => {
      const wire = await LegacyWire.open(url());
      const first = await wire.stream('tools/call', { name: 'ask_name' }, 'q1');
      const second = await wire.stream('tools/call', { name: 'ask_name' }, 'q2');
      const asked = await Promise.all([first, second].map((s) => s.waitFor((m) => m.method === 'elicitation/create')));
      const third = await call(wire, 'q3', 'tools/call', { name: 'ask_name' });
      expectLimit(third, 'q3', 'maxPendingRequestsPerSession', 2, -32600);
      for (const [i, question] of asked.entries()) {
        expect((await wire.answer(question.id, { action: 'accept', content: { name: `N${i}` } })).status).toBe(202);
      }
      const results = await Promise.all([first, second].map((s) => s.waitFor((m) => 'result' in m || 'error' in m)));
      expect(results.map((m) => [m.id, m.result.content[0].text])).toEqual([
        ['q1', 'Hello, N0!'],
        ['q2', 'Hello, N1!'],
      ]);
      expect(stateOf(wire).pending.size).toBe(0);
    });

    it.each<[string, (wire: LegacyWire) => Promise<RawResponse>, number]>([
      [
        'no Mcp-Session-Id',
        (w) => post(w.url, { jsonrpc: '2.0', id: 'r-1', method: 'ping' }, without(w.headers(), 'mcp-session-id')),
        400,
      ],
      [
        'an unknown session',
        (w) => post(w.url, { jsonrpc: '2.0', id: 'r-1', method: 'ping' }, w.headers({ 'mcp-session-id': 'forged' })),
        404,
      ],
      [
        'another principal’s session',
        (w) => post(w.url, { jsonrpc: '2.0', id: 'r-1', method: 'ping' }, w.headers({ 'x-user': 'mallory' })),
        403,
      ],
      [
        'an unsupported MCP-Protocol-Version',
        (w) =>
          post(
            w.url,
            { jsonrpc: '2.0', id: 'r-1', method: 'ping' },
            w.headers({ 'mcp-protocol-version': '1999-01-01' }),
          ),
        400,
      ],
      ['a batch', (w) => post(w.url, [{ jsonrpc: '2.0', id: 'r-1', method: 'ping' }], w.headers()), 400],
      [
        'an Accept without JSON',
        (w) => post(w.url, { jsonrpc: '2.0', id: 'r-1', method: 'ping' }, w.headers({ accept: 'text/html' })),
        406,
      ],
      [
        'an ended session',
        async (w) => {
          expect((await w.delete()).status).toBe(200);
          return post(w.url, { jsonrpc: '2.0', id: 'r-1', method: 'ping' }, w.headers());
        },
        404,
      ],
    ])('%s → its status, -32600 and the request id as sent', async (_label, send, status) => {
      const wire = await LegacyWire.open(url(), { elicitation: {} }, { 'x-user': 'alice' });
      const r = await send(wire);
      expect([r.status, r.json.error.code, r.json.id]).toEqual([status, -32600, 'r-1']);
      expect(r.text).not.toMatch(STACK);
    });

    it('a numeric id is kept as a number in a refusal', async () => {
      const r = await post(
        url(),
        { jsonrpc: '2.0', id: 9, method: 'tools/list' },
        { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': LEGACY_VERSION },
      );
      expect([r.status, r.json.id]).toEqual([400, 9]);
    });

    it('HEAD on the MCP path → 405 with Allow: GET, POST, DELETE, the same answer as PUT', async () => {
      const head = await send(url(), 'HEAD', undefined);
      const put = await send(url(), 'PUT', undefined);
      expect([head.status, head.headers['allow']]).toEqual([405, 'GET, POST, DELETE']);
      expect([put.status, put.headers['allow']]).toEqual([head.status, head.headers['allow']]);
    });
  });

  describe('honest eviction (legacy.maxSessions 20)', () => {
    const app = boundedApp(adapter, {
      legacy: { maxSessions: 20 },
      limits: { maxSessionsPerCaller: 5, maxSubscriptionsPerSession: 1 },
    });

    it('31 sessions of 7 callers: the victim keeps its state; every session keeps its state or gets 404, never 200 with blank state', async () => {
      const { url } = app.server();
      const victim = await sessionWithState(url, 'victim');
      const flood: LegacyWire[] = [];
      for (let caller = 0; caller < 6; caller++) {
        for (let i = 0; i < 5; i++) flood.push(await sessionWithState(url, `flood-${caller}`));
      }
      expect(app.server().app.get(LegacySessions).size).toBeLessThanOrEqual(20);
      expect(await stateIn(victim)).toBe('kept');
      const seen = await Promise.all(flood.map(stateIn));
      expect(seen.filter((s) => s === 'blank')).toEqual([]);
      expect(seen.filter((s) => s === 'gone').length).toBeGreaterThanOrEqual(flood.length + 1 - 20);
      // A session told 404 starts again and is served.
      const again = await sessionWithState(url, 'flood-0');
      expect(await stateIn(again)).toBe('kept');
    });
  });

  describe('honest eviction past what the node remembers of it (legacy.maxSessions 2: 20 refused ids)', () => {
    const app = boundedApp(adapter, { legacy: { maxSessions: 2 }, limits: { maxSubscriptionsPerSession: 1 } });

    it('a session dropped 30 evictions ago still gets 404, never 200 with blank state; new sessions are served', async () => {
      const { url } = app.server();
      const victim = await sessionWithState(url, 'victim');
      for (let i = 0; i < 30; i++) await sessionWithState(url, `churn-${i}`);
      expect(await stateIn(victim)).toBe('gone');
      const again = await sessionWithState(url, 'victim');
      expect(await stateIn(again)).toBe('kept');
    });
  });

  describe('sessions per caller (limits.maxSessionsPerCaller 5)', () => {
    const app = boundedApp(adapter, { limits: { maxSessionsPerCaller: 5, maxSubscriptionsPerSession: 1 } });

    it.each([
      ['a principal', 'greedy'],
      ['an anonymous caller (its client address)', undefined],
    ])('%s opening a 6th session loses its own oldest one (404), never another caller’s', async (_label, user) => {
      const { url } = app.server();
      const bystander = await sessionWithState(url, 'bystander');
      const own: LegacyWire[] = [];
      for (let i = 0; i < 6; i++) own.push(await sessionWithState(url, user));
      expect(await Promise.all(own.map(stateIn))).toEqual(['gone', 'kept', 'kept', 'kept', 'kept', 'kept']);
      expect(await stateIn(bystander)).toBe('kept');
    });

    it('a caller whose sessions all have a stream open gets 429 with the id for a 6th, until one ends', async () => {
      const { url } = app.server();
      const busy = [];
      for (let i = 0; i < 5; i++) {
        const wire = await sessionWithState(url, 'streamer');
        const stream = await openGetStream(wire);
        expect(stream.status).toBe(200);
        busy.push({ wire, stream });
      }
      // The 6th session's first message (notifications/initialized, as a client sends it) is refused.
      const opened = await initialize(
        url,
        { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'sixth', version: '1' } },
        { 'x-user': 'streamer' },
      );
      const headers = {
        ...busy[0]!.wire.headers(),
        'mcp-session-id': String(opened.headers['mcp-session-id']),
      };
      const ping = (id: string) => post(url, { jsonrpc: '2.0', id, method: 'ping' }, headers);
      const refused = await ping('six');
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({
        id: 'six',
        error: { code: -32600, data: { limit: 'maxSessionsPerCaller', max: 5 } },
      });
      // A posted response's id names the server's push, not a request: its refusal carries none.
      const answer = await post(url, { jsonrpc: '2.0', id: 'push-1', result: {} }, headers);
      expect(answer.status).toBe(429);
      expect(answer.json).toMatchObject({ id: null, error: { data: { limit: 'maxSessionsPerCaller' } } });
      expect((await busy[0]!.wire.delete()).status).toBe(200);
      expect((await ping('six-again')).json).toEqual({ jsonrpc: '2.0', id: 'six-again', result: {} });
      for (const { stream } of busy) stream.close();
    });
  });
});

/** A backplane whose loads wait while `hold` is armed, to let a client leave in the meantime. */
class HeldBackplane extends LocalSessionBackplane {
  private held: Promise<void> | undefined;
  private releaseHeld: (() => void) | undefined;
  entered: Promise<void> = Promise.resolve();
  private enter: (() => void) | undefined;

  hold(): void {
    this.held = new Promise((resolve) => (this.releaseHeld = resolve));
    this.entered = new Promise((resolve) => (this.enter = resolve));
  }

  release(): void {
    this.releaseHeld?.();
    this.held = undefined;
  }

  override async load(sessionId: string) {
    if (this.held) {
      this.enter?.();
      await this.held;
    }
    return super.load(sessionId);
  }
}

describe.each(ADAPTERS)('a 2025-era GET whose client leaves while its session loads, on %s', (adapter) => {
  const backplane = new HeldBackplane();
  const app = boundedApp(adapter, {
    sessionBackplane: backplane,
    limits: { maxSessionsPerCaller: 1, maxSubscriptionsPerSession: 1 },
  });

  it('leaves the session idle (no stream kept for a gone client): the caller’s next session replaces it', async () => {
    const { url } = app.server();
    const left = await sessionWithState(url, 'leaver');
    backplane.hold();
    const req = request(left.url, { method: 'GET', headers: left.headers({ accept: 'text/event-stream' }) });
    req.on('error', () => undefined);
    req.end();
    await backplane.entered;
    req.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    backplane.release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Had the gone client's stream been kept, the session would count as busy and this would be 429.
    const next = await sessionWithState(url, 'leaver');
    expect(await stateIn(next)).toBe('kept');
    expect(await stateIn(left)).toBe('gone');
  });
});

function without(headers: Record<string, string>, name: string): Record<string, string> {
  const copy = { ...headers };
  delete copy[name];
  return copy;
}
