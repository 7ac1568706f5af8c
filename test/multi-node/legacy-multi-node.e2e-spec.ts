import type { IncomingMessage, Server } from 'node:http';
import { Inject, Injectable, Module } from '@nestjs/common';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { ElicitationContext, McpModule, McpTool } from '../../src/index.js';
import { connectLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { type AdapterKind, type RunningApp, startApp } from '../support/start-app.js';
import { type Balancer, type BalancerOptions, startNginx } from './nginx-balancer.js';

/**
 * 2025-era sessions (the official client with its default options: `initialize` 2025-11-25, a sealed
 * Mcp-Session-Id) across two nodes sharing `mrtr.secrets`, behind a real nginx. Plain calls need no
 * affinity; an interactive call needs its answer POSTs routed to the node holding the call's SSE
 * stream, which `hash $http_mcp_session_id consistent;` does and plain round robin does not.
 */

const SHARED_SECRETS = ['legacy-multi-node-secret-0123456789-abcdefghijklmnop'];
const NODE_NAME = Symbol('node-name');
/** A short round timeout for the pair whose answers are expected to get lost. */
const SHORT_INPUT_TIMEOUT_MS = 1500;

/** How many times each node ran each tool handler; one instance shared by every node's container. */
class NodeTally {
  private readonly runs = new Map<string, number>();
  count(tool: string, node: string): void {
    this.runs.set(`${tool}@${node}`, this.of(tool, node) + 1);
  }
  of(tool: string, node: string): number {
    return this.runs.get(`${tool}@${node}`) ?? 0;
  }
  reset(): void {
    this.runs.clear();
  }
}
const tally = new NodeTally();

@Injectable()
class NodeTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    private readonly tally: NodeTally,
    @Inject(NODE_NAME) private readonly node: string,
  ) {}

  @McpTool({ name: 'survey', description: 'Asks three questions' })
  async survey(): Promise<string> {
    this.tally.count('survey', this.node);
    const name = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    const city = await this.elicitation.elicit('Your city?', (s) => s.string('city'));
    const happy = await this.elicitation.elicit('Happy?', (s) => s.boolean('happy'));
    if (name.action !== 'accept' || city.action !== 'accept' || happy.action !== 'accept') return 'incomplete';
    return `${name.content.name} from ${city.content.city} is ${happy.content.happy ? 'happy' : 'not happy'}`;
  }

  @McpTool({ name: 'whoami', description: 'Names the node that ran it' })
  whoami(): string {
    this.tally.count('whoami', this.node);
    return this.node;
  }
}

function nodeModule(node: string, legacy?: { inputRoundTimeoutMs: number }): new () => object {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'legacy-multi-node',
        version: '1.0.0',
        mrtr: { secrets: SHARED_SECRETS },
        ...(legacy && { legacy }),
      }),
    ],
    providers: [NodeTools, { provide: NodeTally, useValue: tally }, { provide: NODE_NAME, useValue: node }],
  })
  class NodeModule {}
  return NodeModule;
}

/** One HTTP request as a node received it (seen before Express or Fastify routes it). */
interface Hit {
  node: string;
  verb: string;
  tag: string | undefined;
  session: string | undefined;
}
const hits: Hit[] = [];

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function startNodes(
  pair: Array<[string, AdapterKind]>,
  legacy?: { inputRoundTimeoutMs: number },
): Promise<RunningApp[]> {
  const nodes: RunningApp[] = [];
  for (const [name, adapter] of pair) {
    const node = await startApp(nodeModule(name, legacy), adapter);
    (node.app.getHttpServer() as Server).prependListener('request', (req: IncomingMessage) => {
      hits.push({
        node: name,
        verb: req.method ?? '',
        tag: header(req, 'x-test-tag'),
        session: header(req, 'mcp-session-id'),
      });
    });
    nodes.push(node);
  }
  return nodes;
}

function portsOf(nodes: RunningApp[]): number[] {
  return nodes.map((n) => Number(new URL(n.url).port));
}

/** One HTTP request as the client's transport sent it. */
interface Sent {
  tag: string;
  verb: string;
  /** The JSON-RPC method, or `response <id>` for the client's answer to a pushed request. */
  what: string;
  body: Record<string, unknown> | undefined;
  status?: number;
}

/**
 * A fetch for the transport that tags each request (`x-test-tag`) and notes what it carried and the
 * status it got; `nodeOf` joins a request with the node that received it.
 */
class RecordingWire {
  readonly sent: Sent[] = [];
  private seq = 0;

  constructor(private readonly name: string) {}

  readonly fetch: typeof fetch = async (input, init) => {
    const tag = `${this.name}-${++this.seq}`;
    const headers = new Headers(init?.headers);
    headers.set('x-test-tag', tag);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const what = !body ? '' : typeof body['method'] === 'string' ? body['method'] : `response ${String(body['id'])}`;
    const entry: Sent = { tag, verb: init?.method ?? 'GET', what, body };
    this.sent.push(entry);
    const response = await fetch(input, { ...init, headers });
    entry.status = response.status;
    return response;
  };

  nodeOf(sent: Sent): string | undefined {
    return hits.find((hit) => hit.tag === sent.tag)?.node;
  }

  posts(what: string | RegExp): Sent[] {
    return this.sent.filter(
      (s) => s.verb === 'POST' && (typeof what === 'string' ? s.what === what : what.test(s.what)),
    );
  }

  /** Which node served each request, for failure messages. */
  trace(): string {
    return this.sent
      .map((s) => `${s.verb} ${s.what || '(stream)'} → ${this.nodeOf(s) ?? '?'} ${s.status ?? '…'}`)
      .join('\n');
  }
}

const ANSWERS: Record<string, Record<string, string | number | boolean>> = {
  name: { name: 'Ada' },
  city: { city: 'Porto' },
  happy: { happy: true },
};

function answer(params: { requestedSchema?: { properties?: object } }): ElicitResult {
  const field = Object.keys(params.requestedSchema?.properties ?? {})[0]!;
  return { action: 'accept', content: ANSWERS[field] };
}

async function connect(balancer: Balancer, wire: RecordingWire): Promise<LegacyClient> {
  const connection = await connectLegacyClient(balancer.url, {
    onElicit: (params) => answer(params as never),
    fetch: wire.fetch,
  });
  // The default client negotiates the 2025 era: it opened with initialize 2025-11-25 and holds a session id.
  const [initialize] = wire.posts('initialize');
  expect((initialize?.body?.['params'] as { protocolVersion?: string } | undefined)?.protocolVersion).toBe(
    '2025-11-25',
  );
  expect(connection.transport.sessionId).toEqual(expect.any(String));
  return connection;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');
}

describe('2025-era sessions on two nodes behind a real nginx', () => {
  let nodes: RunningApp[] = [];

  beforeAll(async () => {
    nodes = await startNodes([
      ['node-a', 'express'],
      ['node-b', 'fastify'],
    ]);
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
  });

  function withBalancer(options: BalancerOptions): () => Balancer {
    let balancer: Balancer | undefined;
    beforeAll(async () => {
      balancer = await startNginx(portsOf(nodes), options);
    });
    afterAll(async () => {
      await balancer?.stop();
    });
    return () => balancer!;
  }

  describe('hashing on Mcp-Session-Id (hash $http_mcp_session_id consistent)', () => {
    const balancer = withBalancer({ balance: 'session-hash' });

    it('completes a three-question elicitation, every request of the session on one node', async () => {
      tally.reset();
      const wire = new RecordingWire('hash');
      const { client, transport, asked, close } = await connect(balancer(), wire);
      try {
        const result = await client.callTool({ name: 'survey', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: 'Ada from Porto is happy' }]);
        expect(asked.map((p) => p.message)).toEqual(['Your name?', 'Your city?', 'Happy?']);

        const [call] = wire.posts('tools/call');
        const owner = wire.nodeOf(call!);
        const answers = wire.posts(/^response /);
        expect(answers.map((a) => [wire.nodeOf(a), a.status])).toEqual([
          [owner, 202],
          [owner, 202],
          [owner, 202],
        ]);
        // Everything that carries the session id (POSTs and the client's GET stream) reached the owner;
        // only initialize, which has no session id yet, may have been placed anywhere.
        const session = transport.sessionId;
        const withSession = wire.sent.filter((s) => s.what !== 'initialize');
        expect(withSession.length).toBeGreaterThanOrEqual(5); // initialized, GET, tools/call, 3 answers
        expect(new Set(withSession.map((s) => wire.nodeOf(s)))).toEqual(new Set([owner]));
        expect(hits.filter((h) => h.session === session).every((h) => h.node === owner)).toBe(true);
        // The handler ran four times (the first round and three replays), all in-process on the owner.
        const other = owner === 'node-a' ? 'node-b' : 'node-a';
        expect([tally.of('survey', owner!), tally.of('survey', other)]).toEqual([4, 0]);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- requests ---\n${wire.trace()}`, { cause: error });
      } finally {
        await close();
      }
    });
  });

  describe('plain round robin', () => {
    const balancer = withBalancer({ balance: 'round-robin' });

    it('serves one session’s non-interactive calls from both nodes (the sealed session id opens anywhere)', async () => {
      tally.reset();
      const wire = new RecordingWire('rr');
      const { client, transport, close } = await connect(balancer(), wire);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['survey', 'whoami']);
        const served: string[] = [];
        for (let i = 0; i < 6; i++) {
          const result = await client.callTool({ name: 'whoami', arguments: {} });
          expect(result.isError).toBeFalsy();
          served.push(textOf(result));
        }
        await expect(client.ping()).resolves.toBeDefined();

        // Each call ran on the node that received its POST, and the rotation used both.
        const calls = wire.posts('tools/call');
        expect(served).toEqual(calls.map((c) => wire.nodeOf(c)));
        expect(tally.of('whoami', 'node-a') + tally.of('whoami', 'node-b')).toBe(6);
        expect(tally.of('whoami', 'node-a')).toBeGreaterThan(0);
        expect(tally.of('whoami', 'node-b')).toBeGreaterThan(0);
        // Strict alternation: two nodes, one nginx worker, nothing else on this balancer.
        for (let i = 1; i < served.length; i++) expect(served[i]).not.toBe(served[i - 1]);

        const session = transport.sessionId;
        const sessionPosts = hits.filter((h) => h.session === session && h.verb === 'POST');
        expect(new Set(sessionPosts.map((h) => h.node))).toEqual(new Set(['node-a', 'node-b']));
        // Nothing was refused: requests 200, notifications 202, the GET stream 200.
        expect(wire.sent.filter((s) => s.status !== 200 && !(s.verb === 'POST' && s.status === 202))).toEqual([]);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- requests ---\n${wire.trace()}`, { cause: error });
      } finally {
        await close();
      }
    });
  });
});

describe('2025-era elicitation behind plain round robin (no session affinity): the failure mode', () => {
  let nodes: RunningApp[] = [];
  let balancer: Balancer;

  beforeAll(async () => {
    nodes = await startNodes(
      [
        ['node-c', 'express'],
        ['node-d', 'fastify'],
      ],
      { inputRoundTimeoutMs: SHORT_INPUT_TIMEOUT_MS },
    );
    balancer = await startNginx(portsOf(nodes), { balance: 'round-robin' });
  });
  afterAll(async () => {
    await balancer?.stop();
    for (const node of nodes) await node.close();
  });

  it('an answer POST that reaches the other node gets 400 and the call ends with the round timeout', async () => {
    tally.reset();
    const wire = new RecordingWire('lost');
    const { client, asked, close } = await connect(balancer, wire);
    const errors: string[] = [];
    client.onerror = (error) => errors.push(String(error));
    try {
      const started = Date.now();
      const result = await client.callTool({ name: 'survey', arguments: {} });
      const elapsed = Date.now() - started;

      // Why this is deterministic: nginx alternates the two nodes request by request, and while the
      // call's POST stays open on node X the client's answer POSTs are the only requests it routes
      // (the client's GET stream may take the slot right after the call). So at most one answer can
      // reach X before the next one reaches the other node, which has no such pending request.
      const [call] = wire.posts('tools/call');
      const owner = wire.nodeOf(call!)!;
      const other = owner === 'node-c' ? 'node-d' : 'node-c';
      const answers = wire.posts(/^response /);
      expect(answers.length).toBeGreaterThanOrEqual(1);
      expect(answers.length).toBeLessThanOrEqual(2);
      const lost = answers.at(-1)!;
      expect([wire.nodeOf(lost), lost.status]).toEqual([other, 400]);
      for (const delivered of answers.slice(0, -1))
        expect([wire.nodeOf(delivered), delivered.status]).toEqual([owner, 202]);
      expect(asked).toHaveLength(answers.length);

      // What the client sees: its answer was refused (reported through onerror) ...
      const refusal = errors.find((e) => e.includes('is waiting for an answer in this session'));
      expect(refusal).toContain(`No request with id \\"${String(lost.body?.['id'])}\\"`);
      // ... and the call ends, after the round timeout, with a tool error that names it.
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /did not answer elicitation\/create within [\d.]+ s \(legacy\.inputRoundTimeoutMs\)/,
      );
      expect(elapsed).toBeGreaterThanOrEqual(SHORT_INPUT_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(SHORT_INPUT_TIMEOUT_MS + 5000);
      // The handler only ever ran on the owner: once, plus one replay per delivered answer.
      expect([tally.of('survey', owner), tally.of('survey', other)]).toEqual([answers.length, 0]);
    } catch (error) {
      throw new Error(
        `${(error as Error).message}\n--- requests ---\n${wire.trace()}\n--- client errors ---\n${errors.join('\n')}`,
        {
          cause: error,
        },
      );
    } finally {
      await close();
    }
  });
});
