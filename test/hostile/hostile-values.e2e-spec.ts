import { LegacyWire } from '../legacy/legacy-wire.js';
import { startMrtrApp } from '../mrtr/mrtr-app.js';
import { envelope, mcpHeaders, post } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { RecordingLogger } from './clean-logs.fixtures.js';
import { hostileModule } from './hostile.fixtures.js';

const STACK = /\n\s+at\s|node_modules|\.[cm]?[jt]s:\d+:\d+/;

/**
 * A tools/call of `route` whose `arguments` are written as raw JSON, so a value such as
 * `{"toString":1}` reaches the server exactly as a hostile client sends it.
 */
function routeCall(id: string | number, argumentsJson: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"route","arguments":${argumentsJson},"_meta":${JSON.stringify(envelope())}}}`;
}

describe.each(ADAPTERS)('client values that define their own conversions, on %s', (adapter) => {
  let server: RunningApp;
  const logger = new RecordingLogger();
  beforeAll(async () => {
    server = await startMrtrApp(hostileModule(), adapter, { logger });
  });
  afterAll(() => server.close());
  afterEach(() => {
    // Nothing a client sends may produce an ERROR log line, or a stack in any line.
    expect(logger.errors).toEqual([]);
    expect(logger.lines.filter((l) => STACK.test(l.text))).toEqual([]);
  });

  const route = (id: string | number, argumentsJson: string, params: Record<string, string>) =>
    post(server.url, routeCall(id, argumentsJson), { ...mcpHeaders('tools/call', 'route'), ...params });

  it.each([
    ['an object with its own toString', '{"toString":1}'],
    ['an object with toString and valueOf', '{"toString":1,"valueOf":1}'],
    ['an object whose toString is text', '{"toString":"eu-west","valueOf":"eu-west"}'],
  ])('an x-mcp-header argument that is %s → -32020 with HTTP 400 and the request id, not a 500', async (_, region) => {
    const headers: Array<Record<string, string>> = [
      { 'mcp-param-region': '[object Object]' },
      { 'mcp-param-region': 'eu-west' },
      {},
    ];
    for (const header of headers) {
      const r = await route('param-1', `{"region":${region}}`, header);
      expect([r.status, r.json?.error?.code, r.json?.id]).toEqual([400, -32020, 'param-1']);
      expect(r.json.error.message).toContain('Mcp-Param-Region');
      expect(r.text).not.toMatch(STACK);
    }
  });

  it('an object, an array or a nested value never passes for the text a header carries', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['{"region":{}}', { 'mcp-param-region': '[object Object]' }],
      ['{"region":["eu-west"]}', { 'mcp-param-region': 'eu-west' }],
      ['{"region":[["eu-west"]]}', { 'mcp-param-region': 'eu-west' }],
      ['{"region":"eu-west","shard":[3]}', { 'mcp-param-region': 'eu-west', 'mcp-param-shard': '3' }],
      ['{"region":"eu-west","dryRun":{"valueOf":true}}', { 'mcp-param-region': 'eu-west', 'mcp-param-dry-run': '' }],
    ];
    let id = 100;
    for (const [args, headers] of cases) {
      const r = await route(++id, args, headers);
      expect([args, r.status, r.json?.error?.code, r.json?.id]).toEqual([args, 400, -32020, id]);
    }
  });

  it('strings, integers and booleans are still mirrored, plain or base64-encoded', async () => {
    const plain = await route(7, '{"region":"eu-west","shard":3,"dryRun":false}', {
      'mcp-param-region': 'eu-west',
      'mcp-param-shard': '3',
      'mcp-param-dry-run': 'false',
    });
    expect([plain.status, plain.json.result.content[0].text]).toEqual([200, 'eu-west 3 false']);
    const encoded = await route(8, '{"region":"Zürich\\r\\n"}', {
      'mcp-param-region': `=?base64?${Buffer.from('Zürich\r\n').toString('base64')}?=`,
    });
    expect([encoded.status, encoded.json.result.content[0].text]).toEqual([200, 'Zürich\r\n - -']);
    const absent = await route(9, '{"region":"eu-west","shard":null}', { 'mcp-param-region': 'eu-west' });
    expect(absent.json.result.content[0].text).toBe('eu-west - -');
  });

  it('a 2025-era answer whose error code is an object ends the call with an isError result, not a 500', async () => {
    const wire = await LegacyWire.open(server.url, { sampling: {} });
    const stream = await wire.stream('tools/call', { name: 'ask_model', arguments: {} }, 'ask-1');
    const pushed = await stream.waitFor((m) => m.method === 'sampling/createMessage');
    const answer = await post(
      server.url,
      `{"jsonrpc":"2.0","id":${JSON.stringify(pushed.id)},"error":{"code":{"toString":1,"valueOf":1},"message":"no"}}`,
      wire.headers(),
    );
    expect(answer.status).toBe(202);
    const done = await stream.waitFor((m) => m.id === 'ask-1');
    expect(done.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The client answered sampling/createMessage with an error (no code: no).' }],
    });
  });
});
