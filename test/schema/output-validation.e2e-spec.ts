// A tool's results held to its output schema, on a real app, both adapters, both eras: a
// conforming result passes; a broken or missing structuredContent comes back as an isError result
// naming the failing paths (never the values) with one ERROR line for the developer; the official
// client, which validates structuredContent itself, accepts every result.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RecordingLogger } from '../hostile/clean-logs.fixtures.js';
import { connectOfficialClient } from '../support/official-client.js';
import { rpc } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import { call, pollUntil, result } from '../tasks/tasks-wire.js';
import { GOOD_QUOTE, OutputValidationModule } from './output-validation.fixtures.js';

type ToolResult = { content: Array<{ type: string; text: string }>; structuredContent?: unknown; isError?: boolean };

const HEADLINE = (tool: string) =>
  `The tool ${tool} returned a result that does not match its outputSchema (an error in the server, not in the arguments):`;

describe.each(ADAPTERS)('output validation on %s', (adapter) => {
  let server: RunningApp;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    server = await startApp(OutputValidationModule, adapter, { logger });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    logger.lines.length = 0;
  });

  async function callTool(name: string, mode: string): Promise<ToolResult> {
    const r = await rpc(server.url, 'tools/call', { name, arguments: { mode } });
    expect([r.status, r.json.error, r.json.result.resultType]).toEqual([200, undefined, 'complete']);
    // The parts a tool makes (not the stamp of the 2026-07-28 leg).
    const { content, structuredContent, isError } = r.json.result as ToolResult;
    return {
      content,
      ...(structuredContent !== undefined && { structuredContent }),
      ...(isError !== undefined && { isError }),
    };
  }

  /** The lines after the headline of an output error. */
  const lines = (r: ToolResult) => r.content[0]!.text.split('\n').slice(1);

  it('advertises the DTO output schema and passes a conforming result as it is', async () => {
    const list = await rpc(server.url, 'tools/list');
    const quote = (list.json.result.tools as Array<{ name: string; outputSchema?: object }>).find(
      (t) => t.name === 'quote',
    );
    expect(quote!.outputSchema).toMatchObject({ required: ['currency', 'total', 'lines'] });
    const r = await callTool('quote', 'good');
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toEqual(GOOD_QUOTE);
    expect(r.content).toEqual([{ type: 'text', text: JSON.stringify(GOOD_QUOTE) }]);
    expect(logger.errors).toEqual([]);
  });

  it('answers a result that breaks the DTO output schema with an isError naming each path, and logs it once', async () => {
    const r = await callTool('quote', 'bad');
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(r.content[0]!.text.split('\n')[0]).toBe(HEADLINE('quote'));
    expect(lines(r)).toEqual([
      '- currency: must be one of "EUR", "USD"',
      '- total: must be a number',
      '- lines[0].quantity: must be >= 1',
    ]);
    expect(JSON.stringify(r)).not.toContain('SECRET');
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).toMatch(
      /^Tool quote \(OutputTools\.quote\) returned a result that does not match its outputSchema; .*currency: must be one of .*; total: must be a number; lines\[0\]\.quantity: must be >= 1/,
    );
    expect(logger.errors[0]).not.toContain('SECRET');
  });

  it('holds a hand-written JSON Schema: extra keys, patterns, bounds, each at its path', async () => {
    const good = await callTool('stock', 'good');
    expect(good).toEqual({
      content: [{ type: 'text', text: '1 items' }],
      structuredContent: { items: [{ sku: 'A-1', count: 3 }] },
    });
    const bad = await callTool('stock', 'bad');
    expect(bad.isError).toBe(true);
    expect(lines(bad)).toEqual([
      '- items[1].sku: must match the pattern ^[A-Z]-\\d+$',
      '- items[1].count: must be >= 0',
      '- items[1].extra: is not allowed',
    ]);
    expect(JSON.stringify(bad)).not.toContain('SECRET');
    expect(logger.errors).toHaveLength(1);
  });

  it('answers a result without structuredContent as an error, as the spec requires it to conform', async () => {
    const r = await callTool('stock', 'none');
    expect(r).toEqual({
      content: [
        {
          type: 'text',
          text: `${HEADLINE('stock')}\n- structuredContent: is required, as the tool declares an outputSchema`,
        },
      ],
      isError: true,
    });
    expect(logger.errors).toEqual([expect.stringMatching(/^Tool stock \(OutputTools\.stock\) returned a result/)]);
  });

  it("leaves a tool's own error alone", async () => {
    const r = await callTool('broken', 'good');
    expect(r).toEqual({ content: [{ type: 'text', text: 'the stock service is down' }], isError: true });
    // Nest's exception handler logs the throw; the output check adds nothing.
    expect(logger.errors.filter((line) => line.includes('outputSchema'))).toEqual([]);
  });

  it('sends the value a Standard Schema answers (default filled, unknown key stripped), its text made from it', async () => {
    const r = await callTool('book', 'good');
    expect(r.isError).toBeUndefined();
    const booked = { booked: true, seats: 2, note: 'none' };
    expect(r.structuredContent).toEqual(booked);
    expect(r.content).toEqual([{ type: 'text', text: JSON.stringify(booked) }]);
  });

  it("answers a result that breaks a Standard Schema with the library's messages at each path", async () => {
    const r = await callTool('book', 'bad');
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text.split('\n')[0]).toBe(HEADLINE('book'));
    expect(lines(r).map((line) => line.split(': ')[0])).toEqual(['- booked', '- seats']);
    expect(JSON.stringify(r)).not.toContain('SECRET');
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).not.toContain('SECRET');
  });

  it('waits for a Standard Schema that checks asynchronously', async () => {
    expect((await callTool('redeem', 'good')).structuredContent).toEqual({ code: 'SPRING' });
    const r = await callTool('redeem', 'bad');
    expect([r.isError, lines(r)]).toEqual([true, ['- code: this voucher is already taken']]);
  });

  it("holds a task's result to the schema too", async () => {
    const started = async (mode: string) => {
      const created = result(await call(server.url, 'tools/call', { name: 'count', arguments: { mode } }));
      expect(created.resultType).toBe('task');
      return pollUntil(server.url, created.taskId, (task) => task.status !== 'working');
    };
    const good = await started('good');
    expect([good.status, good.result.structuredContent]).toEqual(['completed', { items: [{ sku: 'B-2', count: 1 }] }]);
    const bad = await started('bad');
    expect(bad.status).toBe('completed');
    expect(bad.result.isError).toBe(true);
    expect(bad.result.content[0].text).toBe(`${HEADLINE('count')}\n- items[0].count: is required`);
    expect(logger.errors).toEqual([expect.stringMatching(/^Tool count \(OutputTools\.count\) returned a result/)]);
  });

  describe.each([
    ['the 2025 era (default settings)', (url: string) => defaultClient(url)],
    ['2026-07-28 (pinned)', (url: string) => connectOfficialClient(url)],
  ])('the official client in %s', (_era, connect) => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(server.url);
      // The client validates structuredContent against the outputSchema it listed.
      await client.listTools();
    });
    afterAll(() => client.close());

    it('gets conforming results, validated on its side too', async () => {
      expect((await client.callTool({ name: 'quote', arguments: { mode: 'good' } })).structuredContent).toEqual(
        GOOD_QUOTE,
      );
      // With the handler's extra key, zod's output schema (additionalProperties: false) would fail the client.
      expect((await client.callTool({ name: 'book', arguments: { mode: 'good' } })).structuredContent).toEqual({
        booked: true,
        seats: 2,
        note: 'none',
      });
    });

    it('gets a broken result as an isError naming the path, for a DTO and for a Standard Schema', async () => {
      const quote = await client.callTool({ name: 'quote', arguments: { mode: 'bad' } });
      expect(quote.isError).toBe(true);
      expect((quote.content as Array<{ text: string }>)[0]!.text).toContain('\n- total: must be a number');
      const book = await client.callTool({ name: 'book', arguments: { mode: 'bad' } });
      expect(book.isError).toBe(true);
      expect((book.content as Array<{ text: string }>)[0]!.text).toMatch(/\n- booked: /);
      const none = await client.callTool({ name: 'stock', arguments: { mode: 'none' } });
      expect(none.isError).toBe(true);
    });
  });
});

async function defaultClient(url: string): Promise<Client> {
  const client = new Client({ name: 'output-validation-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
