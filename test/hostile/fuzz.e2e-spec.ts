import { Agent } from 'node:http';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { envelope, mcpHeaders, post, rpc, type RawResponse } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { hostileModule } from './hostile.fixtures.js';
import { MessageFuzzer } from './message-fuzzer.js';

const MESSAGES_PER_ADAPTER = Number(process.env['FUZZ_MESSAGES'] ?? 6_000);
const BATCH = 500;
const CONCURRENCY = 16;
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261130);
const STACK = /\n\s+at\s|node_modules|\.[cm]?[jt]s:\d+:\d+/;

interface Sent {
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** One fuzzed message, sent as is with its length (not chunked), on the run's keep-alive agent. */
const send = (url: URL, agent: Agent, { body, headers }: Sent): Promise<RawResponse> =>
  post(url.href, body, { ...headers, 'content-length': String(Buffer.byteLength(body)) }, { agent });

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** The last JSON-RPC message of a JSON or SSE body, if it has one. */
function lastMessage(text: string): unknown {
  const data = text.includes('data:')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .at(-1)
        ?.slice(5)
    : text;
  try {
    return data ? JSON.parse(data) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Says what is wrong when the answer to a request that had an id (a string or a number) carries
 * another one, `null` included: every refusal of such a request must name it.
 */
function wrongId(body: string, text: string): string | undefined {
  let sent: unknown;
  try {
    sent = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return undefined;
  const { id, method } = sent as Record<string, unknown>;
  if (typeof method !== 'string' || !(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))))
    return undefined;
  const answer = lastMessage(text);
  if (typeof answer !== 'object' || answer === null || !('id' in answer)) return undefined;
  return (answer as { id: unknown }).id === id
    ? undefined
    : `the answer's id is ${JSON.stringify((answer as { id: unknown }).id)}`;
}

describe.each(ADAPTERS)('a fuzzing client (seed %s), on %s'.replace('%s', String(SEED)), (adapter) => {
  let server: RunningApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    server = await startMrtrApp(hostileModule({ legacy: { inputRoundTimeoutMs: 100 }, toolTimeoutMs: 300 }), adapter, {
      logger,
    });
  });
  afterAll(() => server.close());

  it(`answers ${MESSAGES_PER_ADAPTER} random and mutated messages without a 5xx, a stack or an ERROR log, and keeps serving`, async () => {
    const fuzz = new MessageFuzzer(SEED + (adapter === 'express' ? 1 : 0));
    const wire = await LegacyWire.open(server.url, { elicitation: {}, sampling: {}, roots: {} });
    const first = await rpc(
      server.url,
      'tools/call',
      { name: 'ask_model', arguments: {} },
      { capabilities: { sampling: {} } },
    );
    const requestState = first.json.result.requestState as string;
    const task = await rpc(
      server.url,
      'tools/call',
      { name: 'quick_task', arguments: { ask: true } },
      { capabilities: TASKS },
    );
    const taskId = task.json.result.taskId as string;
    expect(typeof taskId).toBe('string');
    const modern = (method: string, params: Record<string, unknown>, caps: Record<string, unknown> = {}) => ({
      jsonrpc: '2.0',
      id: fuzz.int(1000),
      method,
      params: { ...params, _meta: envelope(caps) },
    });
    const templates: Array<() => { message: Record<string, unknown>; headers: Record<string, string> }> = [
      () => ({
        message: modern('tools/call', {
          name: 'tree',
          arguments: { root: { name: 'a', child: { name: 'b' } }, weight: 2 },
        }),
        headers: mcpHeaders('tools/call', 'tree'),
      }),
      () => ({
        message: modern('tools/call', { name: 'echo', arguments: { a: 1 } }),
        headers: mcpHeaders('tools/call', 'echo'),
      }),
      () => ({
        message: modern(
          'tools/call',
          {
            name: 'ask_model',
            arguments: {},
            requestState,
            inputResponses: { 'sample-1': { role: 'assistant', model: 'm', content: { type: 'text', text: 'x' } } },
          },
          { sampling: {} },
        ),
        headers: mcpHeaders('tools/call', 'ask_model'),
      }),
      () => ({ message: modern('tools/list', {}), headers: mcpHeaders('tools/list') }),
      () => ({ message: modern('server/discover', {}), headers: mcpHeaders('server/discover') }),
      () => ({
        message: modern('tools/call', { name: 'notes', arguments: {} }, { elicitation: {} }),
        headers: mcpHeaders('tools/call', 'notes'),
      }),
      () => ({
        message: {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
        },
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      }),
      () => ({
        message: {
          jsonrpc: '2.0',
          id: fuzz.int(100),
          method: 'tools/call',
          params: { name: 'tree', arguments: { root: { name: 'z' } } },
        },
        headers: wire.headers(),
      }),
      () => ({
        message: { jsonrpc: '2.0', id: fuzz.int(100), method: 'tools/call', params: { name: 'ask_model' } },
        headers: wire.headers(),
      }),
      () => ({
        message: { jsonrpc: '2.0', id: 'mocapi-1', result: { action: 'accept', content: {} } },
        headers: wire.headers(),
      }),
      () => ({
        message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
        headers: wire.headers(),
      }),
      () => ({
        message: { jsonrpc: '2.0', id: 9, method: 'logging/setLevel', params: { level: 'info' } },
        headers: wire.headers(),
      }),
      // The tasks extension: a real task of this caller, someone else's (unknown) task, a new task.
      () => ({ message: modern('tasks/get', { taskId }, TASKS), headers: mcpHeaders('tasks/get', taskId) }),
      () => ({
        message: modern(
          'tasks/update',
          { taskId, inputResponses: { 'elicit-1': { action: 'accept', content: { go: true } } } },
          TASKS,
        ),
        headers: mcpHeaders('tasks/update', taskId),
      }),
      () => ({
        message: modern('tasks/cancel', { taskId: 'task-nope' }, TASKS),
        headers: mcpHeaders('tasks/cancel', 'task-nope'),
      }),
      () => ({
        message: modern('tools/call', { name: 'quick_task', arguments: {} }, TASKS),
        headers: mcpHeaders('tools/call', 'quick_task'),
      }),
      // More of the 2025-era leg: subscriptions, reads, lists, pings, a task method it does not serve.
      () => ({
        message: { jsonrpc: '2.0', id: fuzz.int(100), method: 'resources/subscribe', params: { uri: 'notes://1' } },
        headers: wire.headers(),
      }),
      () => ({
        message: { jsonrpc: '2.0', id: `s-${fuzz.int(100)}`, method: 'resources/read', params: { uri: 'notes://1' } },
        headers: wire.headers(),
      }),
      () => ({ message: { jsonrpc: '2.0', id: fuzz.int(100), method: 'tools/list' }, headers: wire.headers() }),
      () => ({ message: { jsonrpc: '2.0', id: fuzz.int(100), method: 'ping' }, headers: wire.headers() }),
      () => ({
        message: { jsonrpc: '2.0', id: fuzz.int(100), method: 'tasks/get', params: { taskId } },
        headers: wire.headers(),
      }),
    ];
    // The route tool mirrors region, shard and dryRun in Mcp-Param-* headers (x-mcp-header).
    const PARAM_HEADERS = [
      ['region', 'mcp-param-region'],
      ['shard', 'mcp-param-shard'],
      ['dryRun', 'mcp-param-dry-run'],
    ] as const;
    const hostileRoute = (): { message: Record<string, unknown>; headers: Record<string, string> } => {
      const args: Record<string, unknown> = {};
      for (const [property] of PARAM_HEADERS) if (fuzz.next() < 0.7) args[property] = fuzz.headerArgument();
      const headers = mcpHeaders('tools/call', 'route');
      for (const [property, header] of PARAM_HEADERS) {
        const value = fuzz.headerFor(args[property]);
        if (value !== undefined) headers[header] = value;
      }
      return { message: modern('tools/call', { name: 'route', arguments: args }), headers };
    };
    templates.push(hostileRoute);
    const mutateHeaders = (headers: Record<string, string>): Record<string, string> => {
      if (fuzz.next() > 0.15) return headers;
      const name = fuzz.pick([
        'mcp-protocol-version',
        'mcp-method',
        'mcp-name',
        'mcp-session-id',
        'accept',
        'content-type',
        'mcp-param-region',
        'mcp-param-shard',
      ]);
      return {
        ...headers,
        [name]: fuzz.pick([
          '',
          'garbage',
          '=?base64?!!?=',
          '2025-06-18',
          '2026-07-28',
          'application/json',
          'text/plain',
          wire.sessionId.slice(1),
        ]),
      };
    };
    const generate = (): Sent => {
      const roll = fuzz.next();
      if (roll < 0.05)
        return { body: fuzz.string(), headers: { 'content-type': 'application/json', accept: 'application/json' } };
      if (roll < 0.1) return { body: JSON.stringify(fuzz.value()), headers: mcpHeaders('tools/list') };
      // Hostile Mcp-Param-* arguments and headers as sent, so most of them reach the header check.
      if (roll >= 0.9) {
        const { message, headers } = hostileRoute();
        return { body: JSON.stringify(message), headers };
      }
      const { message, headers } = fuzz.pick(templates)();
      const mutated = roll < 0.2 ? message : fuzz.mutate(message);
      return { body: JSON.stringify(mutated) ?? 'null', headers: mutateHeaders(headers) };
    };

    const url = new URL(server.url);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const failures: string[] = [];
    // How the calls of the route tool were answered: results, and errors by code.
    const routeAnswers = new Map<string, number>();
    let sent = 0;
    try {
      while (sent < MESSAGES_PER_ADAPTER) {
        const batch = Array.from({ length: Math.min(BATCH, MESSAGES_PER_ADAPTER - sent) }, generate);
        sent += batch.length;
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < batch.length) {
              const message = batch[next++]!;
              const { status, text } = await send(url, agent, message);
              // A body not sent as JSON is not read as JSON-RPC (415): it has no id to answer with.
              const readable = message.headers['content-type'] === 'application/json';
              const problem =
                status >= 500 || STACK.test(text)
                  ? 'a 5xx or a stack'
                  : readable
                    ? wrongId(message.body, text)
                    : undefined;
              if (message.body.includes('"name":"route"')) {
                const answer = lastMessage(text) as { result?: unknown; error?: { code?: unknown } } | undefined;
                const kind = answer?.result ? 'result' : String(answer?.error?.code ?? status);
                routeAnswers.set(kind, (routeAnswers.get(kind) ?? 0) + 1);
              }
              if (problem)
                failures.push(
                  `${problem}: ${status} ${JSON.stringify(message.headers)} for ${message.body.slice(0, 300)} → ${text.slice(0, 300)}`,
                );
            }
          }),
        );
        const check = await rpc(server.url, 'tools/call', { name: 'echo', arguments: { after: sent } });
        expect(check.json.result.content[0].text).toBe(JSON.stringify({ after: sent }));
      }
    } finally {
      agent.destroy();
    }
    expect(failures).toEqual([]);
    expect(logger.errors).toEqual([]);
    // The hostile Mcp-Param-* calls reached the header check, and well-mirrored ones went through.
    expect(routeAnswers.get('-32020')).toBeGreaterThan(100);
    expect(routeAnswers.get('result')).toBeGreaterThan(10);
    expect(sent).toBe(MESSAGES_PER_ADAPTER);
  }, 120_000);
});
