import { connect } from 'node:net';
import { envelope, mcpHeaders, post, rpc } from '../support/raw-mcp.js';
import { ADAPTERS } from '../support/start-app.js';
import { LegacyWire } from '../legacy/legacy-wire.js';
import { useHostileApp } from './hostile.fixtures.js';

const deep = (levels: number): unknown => JSON.parse(`${'{"child":'.repeat(levels)}{"name":"x"}${'}'.repeat(levels)}`);
const STACK = /\n\s+at\s|node_modules|\.ts:\d+/;

describe.each(ADAPTERS)('hostile input, on %s', (adapter) => {
  // Nothing a client sends may produce an ERROR log line (or a stack in the log): checked after each test.
  const hostile = useHostileApp(adapter);
  const { call } = hostile;

  it('arguments nested 10,000 deep → -32602 (400) before any DTO transform, and the server goes on', async () => {
    const nested = `${'{"child":'.repeat(10_000)}{"name":"x"}${'}'.repeat(10_000)}`;
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tree","arguments":{"root":${nested}},"_meta":${JSON.stringify(envelope())}}}`;
    const r = await post(hostile.server.url, body, mcpHeaders('tools/call', 'tree'));
    expect([r.status, r.json.error.code]).toEqual([400, -32602]);
    expect(r.json.error.message).toBe('params is nested deeper than 32 levels');
    expect(r.text).not.toMatch(STACK);
    const ok = await call('tree', { arguments: { root: { name: 'a', child: { name: 'b' } } } });
    expect(ok.json.result.content[0].text).toBe('a 0');
  });

  it('1e400 in an argument → -32602 saying the number is out of range, no internal text', async () => {
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tree","arguments":{"root":{"name":"a"},"weight":1e400},"_meta":${JSON.stringify(envelope())}}}`;
    const r = await post(hostile.server.url, body, mcpHeaders('tools/call', 'tree'));
    expect([r.status, r.json.error.code, r.json.id]).toEqual([400, -32602, 7]);
    expect(r.json.error.message).toContain('outside the range JSON numbers can carry');
    expect(r.text).not.toContain('canonicalJson');
  });

  it('deeply nested inputResponses or _meta → -32602', async () => {
    const answers = await call('ask_model', { inputResponses: { 'sample-1': deep(100) } }, { sampling: {} });
    expect(answers.json.error.code).toBe(-32602);
    const meta = await post(
      hostile.server.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { ...envelope(), extra: deep(50) } } },
      mcpHeaders('tools/list'),
    );
    expect([meta.status, meta.json.error.code]).toEqual([400, -32602]);
  });

  it('a 60 KB junk field in a sampling answer is not sealed: the flow completes with small tokens', async () => {
    const first = await call('ask_model', { arguments: {} }, { sampling: {} });
    const junk = 'j'.repeat(60_000);
    const answer = { role: 'assistant', model: 'm', content: { type: 'text', text: 'Paris' }, junk };
    const second = await call(
      'ask_model',
      { arguments: {}, requestState: first.json.result.requestState, inputResponses: { 'sample-1': answer } },
      { sampling: {} },
    );
    expect(second.json.result.resultType).toBe('input_required');
    expect(second.json.result.requestState.length).toBeLessThan(1_000);
    const done = await call(
      'ask_model',
      { arguments: {}, requestState: second.json.result.requestState, inputResponses: { 'sample-2': answer } },
      { sampling: {} },
    );
    expect(done.json.result.content[0].text).toBe('5,5');
  });

  it('an answer larger than mrtr.maxAnswerChars is asked again, and the round says why', async () => {
    const first = await call('ask_model', { arguments: {} }, { sampling: {} });
    const huge = { role: 'assistant', model: 'm', content: { type: 'text', text: 'y'.repeat(20_000) } };
    const again = await call(
      'ask_model',
      { arguments: {}, requestState: first.json.result.requestState, inputResponses: { 'sample-1': huge } },
      { sampling: {} },
    );
    expect(Object.keys(again.json.result.inputRequests)).toEqual(['sample-1']);
    expect(again.json.result._meta['io.mocapi/refusedInputResponses']).toEqual({
      'sample-1': 'larger than 16384 characters of JSON (mrtr.maxAnswerChars)',
    });
  });

  it('answers that outgrow mrtr.maxTokenBytes end the flow with a client error that says what to do', async () => {
    let state: string | undefined;
    let last: any;
    for (let i = 1; i <= 6; i++) {
      last = await call(
        'notes',
        {
          arguments: {},
          ...(state && {
            requestState: state,
            inputResponses: { [`elicit-${i - 1}`]: { action: 'accept', content: { note: 'n'.repeat(3_000) } } },
          }),
        },
        { elicitation: {} },
      );
      if (last.json.error) break;
      state = last.json.result.requestState;
    }
    expect([last.status, last.json.error.code, last.json.error.data.reason]).toEqual([400, -32602, 'state_too_large']);
    expect(last.json.error.message).toContain('shorter answers');
    expect(last.text).not.toMatch(STACK);
  });

  it('a client that aborts its upload leaves no ERROR in the log', async () => {
    const { port } = new URL(hostile.server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":"2.0",`,
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await rpc(hostile.server.url, 'tools/list')).status).toBe(200);
  });

  it('2025-era sessions get the same bounds, on params and on answers to pushed requests', async () => {
    const wire = await LegacyWire.open(hostile.server.url, { sampling: {} });
    const r = await wire.request('tools/call', { name: 'tree', arguments: { root: deep(1_000) } });
    expect(r.json.error.code).toBe(-32602);
    const stream = await wire.stream('tools/call', { name: 'ask_model' }, 'deep');
    const pushed = await stream.waitFor((m) => m.method === 'sampling/createMessage');
    expect(
      (await wire.answer(pushed.id, { role: 'assistant', model: 'm', content: deep(100) as Record<string, unknown> }))
        .status,
    ).toBe(202);
    const done = await stream.waitFor((m) => m.id === 'deep');
    expect(done.result.isError).toBe(true);
    expect(done.result.content[0].text).toContain('nested deeper than 32 levels');
  });
});
