// Standard Schema tool inputs (zod 4, valibot) beside class-validator DTOs, on a real app and both
// adapters: the advertised schemas, the answer to bad arguments, and the official client.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { envelope, mcpHeaders, post, rpc } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import {
  EXPLICIT_VOUCHER_SCHEMA,
  received,
  StandardSchemaModule,
  VALIBOT_BOOKING_JSON_SCHEMA,
} from './standard-schema.fixtures.js';

const BAD = { name: 5, partySize: 0, guests: [{ name: 'Ana' }, { name: 3 }] };
const GOOD = { name: 'Lopes', partySize: 4, guests: [{ name: 'Ana' }] };

type Tool = { name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> };

/** The paths the violation lines of an invalid-arguments result name, in the order given. */
function violationPaths(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/^- /, '').split(': ')[0]!);
}

describe.each(ADAPTERS)('Standard Schema tool inputs on %s', (adapter) => {
  let server: RunningApp;
  let tools: Map<string, Tool>;

  beforeAll(async () => {
    server = await startApp(StandardSchemaModule, adapter);
    const list = await rpc(server.url, 'tools/list');
    tools = new Map((list.json.result.tools as Tool[]).map((tool) => [tool.name, tool]));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    received.length = 0;
  });

  it('advertises a valid JSON Schema 2020-12 inputSchema for the zod tool and the class-validator tool alike', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const name of ['book_dto', 'book_zod']) {
      const schema = tools.get(name)!.inputSchema;
      expect(ajv.validateSchema(schema)).toBe(true);
      expect(schema['type']).toBe('object');
      const check = ajv.compile(schema);
      expect([name, check(GOOD)]).toEqual([name, true]);
      expect([name, check(BAD)]).toEqual([name, false]);
      expect([name, check({ name: 'Lopes' })]).toEqual([name, false]);
    }
    expect(tools.get('book_zod')!.inputSchema).toMatchObject({
      properties: { name: { type: 'string', minLength: 2 }, partySize: { type: 'integer', minimum: 1, maximum: 12 } },
      required: ['name', 'partySize'],
    });
  });

  it('advertises the zod output as outputSchema, and the result conforms to it', async () => {
    const outputSchema = tools.get('book_zod')!.outputSchema!;
    const ajv = new Ajv2020({ strict: true });
    expect(ajv.validateSchema(outputSchema)).toBe(true);
    const r = await rpc(server.url, 'tools/call', { name: 'book_zod', arguments: GOOD });
    expect(r.json.result.structuredContent).toEqual({ booked: true, for: 'Lopes', seats: 4 });
    expect(ajv.validate(outputSchema, r.json.result.structuredContent)).toBe(true);
    expect(ajv.validate(outputSchema, { booked: 'yes' })).toBe(false);
  });

  it('advertises an explicit inputSchema as is: the valibot tool, and a zod tool whose own one it replaces', async () => {
    expect(tools.get('book_valibot')!.inputSchema).toEqual(VALIBOT_BOOKING_JSON_SCHEMA);
    expect(tools.get('check_code')!.inputSchema).toEqual(EXPLICIT_VOUCHER_SCHEMA);
    // The zod schema still validates the calls.
    const taken = await rpc(server.url, 'tools/call', { name: 'check_code', arguments: { code: 'TAKEN' } });
    expect(taken.json.result.content[0].text).toBe(
      'Invalid arguments for tool check_code:\n- code: this voucher was already used',
    );
  });

  it('refuses the same bad arguments with the same result shape whichever library checks them', async () => {
    const answers = [];
    for (const name of ['book_dto', 'book_zod']) {
      const r = await rpc(server.url, 'tools/call', { name, arguments: BAD });
      expect(r.status).toBe(200);
      expect(r.json.error).toBeUndefined();
      answers.push(r.json.result);
    }
    const [dto, zod] = answers;
    expect(Object.keys(zod).sort()).toEqual(Object.keys(dto).sort());
    for (const [name, result] of [
      ['book_dto', dto],
      ['book_zod', zod],
    ] as const) {
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text' }] });
      expect(result.structuredContent).toBeUndefined();
      expect(result.content[0].text.split('\n')[0]).toBe(`Invalid arguments for tool ${name}:`);
    }
    expect(new Set(violationPaths(zod.content[0].text))).toEqual(new Set(violationPaths(dto.content[0].text)));
    expect(new Set(violationPaths(zod.content[0].text))).toEqual(new Set(['name', 'partySize', 'guests[1].name']));
    expect(zod.content[0].text).toContain('- guests[1].name: Invalid input: expected string, received number');
    expect(received).toEqual([]);
  });

  it('hands the handler the value the schema answers: defaults filled, transforms applied', async () => {
    const r = await rpc(server.url, 'tools/call', { name: 'note', arguments: { text: '  buy bread ' } });
    expect(r.json.result.structuredContent).toEqual({ text: 'BUY BREAD', copies: 2 });
    expect(received).toEqual([{ text: 'BUY BREAD', copies: 2 }]);
    // zod's input JSON Schema knows a default makes a property optional.
    expect(tools.get('note')!.inputSchema['required']).toEqual(['text']);
  });

  it('calls the valibot tool and refuses its bad arguments with paths from valibot path segments', async () => {
    const ok = await rpc(server.url, 'tools/call', {
      name: 'book_valibot',
      arguments: { name: 'Lopes', partySize: 3 },
    });
    expect(ok.json.result.structuredContent).toEqual({ booked: true, for: 'Lopes', seats: 3 });
    const bad = await rpc(server.url, 'tools/call', { name: 'book_valibot', arguments: { name: 'L', partySize: 2.5 } });
    expect(bad.json.result.isError).toBe(true);
    expect(violationPaths(bad.json.result.content[0].text)).toEqual(['name', 'partySize']);
    expect(received).toEqual([{ name: 'Lopes', partySize: 3 }]);
  });

  it('checks the Mcp-Param header of an argument whose zod metadata names one (x-mcp-header)', async () => {
    expect(tools.get('regional')!.inputSchema['properties']).toEqual({
      region: { type: 'string', 'x-mcp-header': 'Region' },
    });
    const body = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'regional', arguments: { region: 'eu-west' }, _meta: envelope() },
    };
    const ok = await post(server.url, body, { ...mcpHeaders('tools/call', 'regional'), 'mcp-param-region': 'eu-west' });
    expect(ok.json.result.content[0].text).toBe('eu-west');
    const missing = await post(server.url, body, mcpHeaders('tools/call', 'regional'));
    expect([missing.status, missing.json.error.code]).toEqual([400, -32020]);
  });

  it('waits for an asynchronous schema', async () => {
    const ok = await rpc(server.url, 'tools/call', { name: 'redeem', arguments: { code: 'SPRING' } });
    expect(ok.json.result.content[0].text).toBe('Redeemed SPRING');
    const taken = await rpc(server.url, 'tools/call', { name: 'redeem', arguments: { code: 'TAKEN' } });
    expect(taken.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Invalid arguments for tool redeem:\n- code: this voucher was already used' }],
    });
  });

  it('the official client on its default settings lists and calls the zod tool', async () => {
    const client = new Client({ name: 'standard-schema-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const listed = await client.listTools();
      expect(listed.tools.find((tool) => tool.name === 'book_zod')?.inputSchema).toEqual(
        tools.get('book_zod')!.inputSchema,
      );
      const booked = await client.callTool({ name: 'book_zod', arguments: GOOD });
      expect(booked.structuredContent).toEqual({ booked: true, for: 'Lopes', seats: 4 });
      const refused = await client.callTool({ name: 'book_zod', arguments: { name: 'L', partySize: 4 } });
      expect(refused.isError).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0]!.text).toMatch(
        /^Invalid arguments for tool book_zod:\n- name: /,
      );
    } finally {
      await client.close();
    }
  });
});
