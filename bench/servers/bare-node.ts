/**
 * The ceiling: plain node:http answering fixed JSON-RPC results. It reads and parses the
 * body (to echo the id and pick the method) and answers a precomputed result: the `add`
 * tools/call result, or a tools/list of TOOLS entries. No MCP validation, no framework.
 */
import { createServer, type ServerResponse } from 'node:http';

import {
  ADD_EXPECTED_TEXT,
  ADD_TOOL,
  CONFIRM_ADD_TOOL,
  CONFIRM_STEPS_TOOL,
  MCP_PATH,
  fillerJsonSchema,
  fillerTools,
} from '../shared/bench-spec.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';

const NUMBER_PAIR_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

const STEPS_SCHEMA = {
  type: 'object',
  properties: { steps: { type: 'integer', minimum: 1, maximum: 16 }, a: { type: 'number' }, b: { type: 'number' } },
  required: ['steps', 'a', 'b'],
};

function listResultJson(total: number): string {
  const tools = [
    { name: ADD_TOOL.name, description: ADD_TOOL.description, inputSchema: NUMBER_PAIR_SCHEMA },
    { name: CONFIRM_ADD_TOOL.name, description: CONFIRM_ADD_TOOL.description, inputSchema: NUMBER_PAIR_SCHEMA },
    { name: CONFIRM_STEPS_TOOL.name, description: CONFIRM_STEPS_TOOL.description, inputSchema: STEPS_SCHEMA },
    ...fillerTools(total).map((t) => ({ name: t.name, description: t.description, inputSchema: fillerJsonSchema(t) })),
  ];
  return JSON.stringify({ tools, resultType: 'complete' });
}

const CALL_RESULT_JSON = JSON.stringify({
  content: [{ type: 'text', text: ADD_EXPECTED_TEXT }],
  resultType: 'complete',
});

function reply(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function envelope(id: unknown, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":${resultJson}}`;
}

function errorEnvelope(id: unknown, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });
}

runMain(async () => {
  const env = readServerEnv();
  const listJson = listResultJson(env.tools);

  const handle = (res: ServerResponse, raw: string) => {
    let message: { id?: unknown; method?: unknown; params?: { name?: unknown } };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      reply(res, 400, errorEnvelope(null, -32700, 'Parse error'));
      return;
    }
    if (message.method === 'tools/call' && message.params?.name === ADD_TOOL.name) {
      reply(res, 200, envelope(message.id, CALL_RESULT_JSON));
    } else if (message.method === 'tools/list') {
      reply(res, 200, envelope(message.id, listJson));
    } else {
      reply(res, 200, errorEnvelope(message.id, -32601, `Not served by the bare ceiling: ${String(message.method)}`));
    }
  };

  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== MCP_PATH) {
      reply(res, 404, errorEnvelope(null, -32601, 'Not found'));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(res, Buffer.concat(chunks).toString('utf8')));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(env.port, env.host, resolve));
  announceListening('bare-node', env);
  exitOnSignal(() => new Promise((resolve) => server.close(resolve)));
});
