import { jest } from '@jest/globals';
import { ConsoleLogger } from '@nestjs/common';
import { connect } from 'node:net';
import { McpCallAbortedError } from '../../src/index.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { startMrtrApp } from '../mrtr/mrtr-app.js';
import { envelope, mcpHeaders, post, rpc } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { AbortProbe, cleanLogsModule, RecordingLogger } from './clean-logs.fixtures.js';

const STACK = /\n\s+at\s|node_modules|\.ts:\d+/;

/** POSTs a tools/call on a raw socket and closes the socket once the handler runs. */
async function callThenHangUp(url: string, probe: AbortProbe, name: string, started: number): Promise<void> {
  const { port } = new URL(url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 41,
    method: 'tools/call',
    params: { name, arguments: {}, _meta: envelope() },
  });
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const headers = Object.entries({
    ...mcpHeaders('tools/call', name),
    'content-length': String(Buffer.byteLength(body)),
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${headers}\r\n${body}`);
  await probe.whenStarted(started);
  socket.destroy();
}

describe.each(ADAPTERS)('client-caused stops and client text in logs, on %s', (adapter) => {
  let server: RunningApp;
  let probe: AbortProbe;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    server = await startMrtrApp(cleanLogsModule(), adapter, { logger });
    probe = server.app.get(AbortProbe);
  });
  afterAll(() => server.close());
  afterEach(() => {
    expect(logger.errors).toEqual([]);
    expect(logger.lines.filter((l) => STACK.test(l.text))).toEqual([]);
  });

  const sawAbort = async (index: number, reason: string) => {
    await probe.whenAborted(index + 1);
    const seen = probe.reasons[index];
    expect(seen).toBeInstanceOf(McpCallAbortedError);
    expect((seen as McpCallAbortedError).reason).toBe(reason);
  };

  it('a 2026 client that hangs up mid-call: the handler rejecting with signal.reason logs no ERROR', async () => {
    const before = probe.reasons.length;
    await callThenHangUp(server.url, probe, 'wait_for_abort', probe.started + 1);
    await sawAbort(before, 'disconnected');
  });

  it('a 2025 notifications/cancelled: typed reason, nothing at ERROR', async () => {
    const before = probe.reasons.length;
    const started = probe.started;
    const wire = await LegacyWire.open(server.url);
    // The response starts only once the call answers: open it, and await it at the end.
    const stream = wire.stream('tools/call', { name: 'wait_for_abort', arguments: {} }, 'c-1');
    await probe.whenStarted(started + 1);
    const cancelled = await wire.notify('notifications/cancelled', { requestId: 'c-1', reason: 'changed my mind' });
    expect(cancelled.status).toBe(202);
    await sawAbort(before, 'cancelled');
    (await stream).close();
  });

  it('a 2025 DELETE while a call runs: typed reason, nothing at ERROR', async () => {
    const before = probe.reasons.length;
    const started = probe.started;
    const wire = await LegacyWire.open(server.url);
    const stream = wire.stream('tools/call', { name: 'wait_for_abort', arguments: {} });
    await probe.whenStarted(started + 1);
    expect((await wire.delete()).status).toBe(200);
    await sawAbort(before, 'session-ended');
    await (
      await stream
    ).ended;
  });

  it('a 2025 client that closes its stream while an elicitation waits: no ERROR from the dispatcher', async () => {
    const started = probe.started;
    const wire = await LegacyWire.open(server.url);
    const stream = await wire.stream('tools/call', { name: 'ask_name', arguments: {} });
    await stream.waitFor((m) => m.method === 'elicitation/create');
    await probe.whenStarted(started + 1);
    stream.close();
    // The session still answers, and nothing was logged as an error (checked after each test).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await wire.request('ping')).json.result).toEqual({});
  });

  it('resources/read of a missing resource: -32602 with data.uri and HTTP 400, not 500', async () => {
    const missing = await rpc(server.url, 'resources/read', { uri: 'notes://nope' });
    expect([missing.status, missing.json.error.code, missing.json.error.data]).toEqual([
      400,
      -32602,
      { uri: 'notes://nope' },
    ]);
    expect(missing.text).not.toMatch(STACK);
    const wire = await LegacyWire.open(server.url);
    const legacy = await wire.request('resources/read', { uri: 'notes://nope' });
    expect(legacy.json.error).toMatchObject({ code: -32602, data: { uri: 'notes://nope' } });
    const found = await rpc(server.url, 'resources/read', { uri: 'notes://one' });
    expect(found.json.result.contents[0].text).toBe('the first note');
  });

  it('client text with CR, LF and escape codes never starts a log line of its own', async () => {
    const forged = 'notes://x\n[Nest] 1  - 01/01/2026, 00:00:00   ERROR [Forged] pwned\r\u001b[31m';
    const marker = logger.lines.length;
    // Refused (Mcp-Name cannot carry a newline, so it differs): the refusal's audit line names the URI.
    await post(
      server.url,
      { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: forged, _meta: envelope() } },
      mcpHeaders('resources/read', 'notes://x'),
    );
    await post(
      server.url,
      { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'no\nsuch\u2028tool', _meta: envelope() } },
      mcpHeaders('tools/call', 'nosuch'),
    );
    const wire = await LegacyWire.open(server.url);
    await wire.request('resources/read', { uri: forged });
    const written = logger.lines.slice(marker);
    // The debug audit line is the one that prints method and target as received.
    expect(written.some((l) => l.level === 'debug' && l.text.includes('resources/read'))).toBe(true);
    // eslint-disable-next-line no-control-regex
    for (const line of written) expect(line.text).not.toMatch(/[\r\n\u001b\u2028]/);
  });
});

describe.each(ADAPTERS)("a tool's error quoting client text, as Nest's ConsoleLogger prints it, on %s", (adapter) => {
  const FORGED_LINE = '[Nest] 1  - 01/01/2026, 00:00:00   ERROR [Forged] pwned';
  const title = `x\r\n${FORGED_LINE}\u2028\u001b[31m`;
  let server: RunningApp;

  beforeAll(async () => {
    const logger = new ConsoleLogger({ colors: false, logLevels: ['error', 'fatal'] });
    server = await startMrtrApp(cleanLogsModule(), adapter, { logger });
  });
  afterAll(() => server.close());

  /** Every line written to stdout and stderr while `act` runs. */
  async function printedWhile(act: () => Promise<void>): Promise<string[]> {
    const printed: string[] = [];
    const capture = (chunk: unknown) => {
      printed.push(String(chunk));
      return true;
    };
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    try {
      await act();
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
    }
    return printed.join('').split(/\r\n|\r|\n|\u2028|\u2029/);
  }

  const expectOneSafeError = (lines: string[]) => {
    expect(lines.filter((line) => line.startsWith(FORGED_LINE))).toEqual([]);
    // Still logged, once, at ERROR, with its stack for the operator; the client text escaped.
    const errors = lines.filter((line) => / ERROR \[ExceptionsHandler\] /.test(line));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`Cannot file a note titled x\\r\\n${FORGED_LINE}\\u2028\\u001b[31m`);
    expect(lines.some((line) => /^ {4}at /.test(line))).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(lines.filter((line) => /\u001b/.test(line))).toEqual([]);
  };

  it('2026-07-28: the isError result carries the message as thrown; the log line cannot be forged', async () => {
    let text = '';
    const lines = await printedWhile(async () => {
      const answer = await rpc(server.url, 'tools/call', { name: 'file_note', arguments: { title } });
      expect(answer.json.result.isError).toBe(true);
      text = answer.json.result.content[0].text;
    });
    expect(text).toBe(`Cannot file a note titled ${title}`);
    expectOneSafeError(lines);
  });

  it('2025-11-25: the same', async () => {
    const wire = await LegacyWire.open(server.url);
    const lines = await printedWhile(async () => {
      const answer = await wire.request('tools/call', { name: 'file_note', arguments: { title } });
      expect(answer.json.result).toMatchObject({
        isError: true,
        content: [{ text: `Cannot file a note titled ${title}` }],
      });
    });
    expectOneSafeError(lines);
  });
});
