/**
 * The official TypeScript SDK v2, stateless: `createMcpHandler(factory)` wrapped with
 * `toNodeHandler` on plain node:http (the documented Node mounting). The factory builds a
 * fresh `McpServer` per request, as the SDK requires; schemas and callbacks are prebuilt so
 * registration is the only per-request setup work.
 *
 * `confirm_add` uses the SDK's MRTR helpers: it returns `inputRequired(...)` with an
 * elicitation and a requestState minted by `createRequestStateCodec` (HMAC), whose `verify`
 * is installed as the server's requestState hook, and completes on the retry.
 *
 * Env SDK_PARSED_BODY=1 reads and parses the body itself and hands it over as `parsedBody`
 * (the faster variant measured in peers.md §8); the default lets the SDK read the body.
 */
import { createServer } from 'node:http';

import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';

import { ADD_TOOL, BENCH_MRTR_SECRET, CONFIRM_ADD_TOOL, MCP_PATH, fillerTools } from '../shared/bench-spec.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';
import { ConfirmSchema, NumberPairSchema, fillerZodSchema } from './zod-schemas.js';

interface ConfirmState {
  readonly tool: string;
  readonly a: number;
  readonly b: number;
}

const codec = createRequestStateCodec<ConfirmState>({ key: BENCH_MRTR_SECRET, ttlSeconds: 600 });

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

async function confirmAdd(
  { a, b }: { a: number; b: number },
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'missing') {
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({ message: CONFIRM_ADD_TOOL.message, requestedSchema: ConfirmSchema }),
      },
      requestState: await codec.mint({ tool: CONFIRM_ADD_TOOL.name, a, b }),
    });
  }
  const state = ctx.mcpReq.requestState<ConfirmState>();
  if (state?.tool !== CONFIRM_ADD_TOOL.name || state.a !== a || state.b !== b) {
    return { ...text('requestState does not match this call'), isError: true };
  }
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', ConfirmSchema);
  return text(content?.ok === true ? String(a + b) : 'cancelled');
}

function buildFactory(totalTools: number): () => McpServer {
  const fillers = fillerTools(totalTools).map((tool) => ({ tool, schema: fillerZodSchema(tool) }));
  const fillerResult = text('ok');
  return () => {
    const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' }, { requestState: { verify: codec.verify } });
    server.registerTool(
      ADD_TOOL.name,
      { description: ADD_TOOL.description, inputSchema: NumberPairSchema },
      ({ a, b }) => text(String(a + b)),
    );
    server.registerTool(
      CONFIRM_ADD_TOOL.name,
      { description: CONFIRM_ADD_TOOL.description, inputSchema: NumberPairSchema },
      confirmAdd,
    );
    for (const { tool, schema } of fillers) {
      server.registerTool(tool.name, { description: tool.description, inputSchema: schema }, () => fillerResult);
    }
    return server;
  };
}

runMain(async () => {
  const env = readServerEnv();
  const handler = createMcpHandler(buildFactory(env.tools), {
    onerror: process.env['BENCH_DEBUG'] ? (error) => process.stderr.write(`${error.stack}\n`) : undefined,
  });
  const nodeHandler = toNodeHandler(handler);
  const parseBody = process.env['SDK_PARSED_BODY'] === '1';

  const server = createServer((req, res) => {
    if (req.url !== MCP_PATH) {
      res.writeHead(404).end();
      return;
    }
    if (!parseBody) {
      void nodeHandler(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      void nodeHandler(req, res, body);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(env.port, env.host, resolve));
  announceListening(parseBody ? 'sdk-v2 (parsed body)' : 'sdk-v2', env);
  exitOnSignal(async () => {
    await handler.close();
    await new Promise((resolve) => server.close(resolve));
  });
});
