/**
 * The official TypeScript SDK v2, stateless: `createMcpHandler(factory)` wrapped with
 * `toNodeHandler` on plain node:http (the documented Node mounting). The factory builds a
 * fresh `McpServer` per request, as the SDK requires; schemas and callbacks are prebuilt so
 * registration is the only per-request setup work.
 *
 * Env SDK_SETUP picks the set-up (bench/README.md, "Peers"):
 * - `best` (the `sdk` target): the SDK's fastest documented stateless settings. The body is read
 *   and parsed once here and handed over as `parsedBody` (the "perf escape hatch" of
 *   `toNodeHandler` / `isLegacyRequest`); 2026-07-28 requests get `responseMode: 'json'` (never
 *   an SSE stream); 2025-era requests, classified with the SDK's own `classifyInboundRequest`,
 *   go to the established stateless idiom with JSON answers: a fresh server on a
 *   `NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })`
 *   per request, in front of a `legacy: 'reject'` handler as the SDK documents for hand-wired
 *   legacy legs. (The built-in `legacy: 'stateless'` leg answers 2025 requests as SSE streams.)
 * - `default` (the opt-in `sdk-default` target): every option at its default; the SDK reads the
 *   body and serves 2025-era requests on its built-in stateless leg.
 *
 * `confirm_add` uses the SDK's MRTR helpers: it returns `inputRequired(...)` with an
 * elicitation and a requestState minted by `createRequestStateCodec` (HMAC), whose `verify`
 * is installed as the server's requestState hook, and completes on the retry. `confirm_steps`
 * asks its `steps` questions one per round with the same helpers; an MRTR retry carries only the
 * answer of its own round, so its requestState carries the earlier answers itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  acceptedContent,
  classifyInboundRequest,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';

import {
  ADD_TOOL,
  BENCH_MRTR_SECRET,
  CONFIRM_ADD_TOOL,
  CONFIRM_STEPS_TOOL,
  MCP_PATH,
  fillerTools,
  stepMessage,
} from '../shared/bench-spec.js';
import { announceListening, exitOnSignal, readServerEnv, runMain } from './server-env.js';
import { ConfirmSchema, NumberPairSchema, StepsSchema, fillerZodSchema } from './zod-schemas.js';

interface ConfirmState {
  readonly tool: typeof CONFIRM_ADD_TOOL.name;
  readonly a: number;
  readonly b: number;
}

/** The state of a confirm_steps flow: its arguments and the answers given so far. */
interface StepsState {
  readonly tool: typeof CONFIRM_STEPS_TOOL.name;
  readonly steps: number;
  readonly a: number;
  readonly b: number;
  readonly answers: readonly boolean[];
}

const codec = createRequestStateCodec<ConfirmState | StepsState>({ key: BENCH_MRTR_SECRET, ttlSeconds: 600 });

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
  const state = ctx.mcpReq.requestState<ConfirmState | StepsState>();
  if (state?.tool !== CONFIRM_ADD_TOOL.name || state.a !== a || state.b !== b) {
    return { ...text('requestState does not match this call'), isError: true };
  }
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', ConfirmSchema);
  return text(content?.ok === true ? String(a + b) : 'cancelled');
}

const stepKey = (step: number) => `step-${step}`;

/** The question of step `step`, with the state that carries the answers before it. */
async function askStep(step: number, state: StepsState): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: {
      [stepKey(step)]: inputRequired.elicit({
        message: stepMessage(step, state.steps),
        requestedSchema: ConfirmSchema,
      }),
    },
    requestState: await codec.mint(state),
  });
}

async function confirmSteps(
  { steps, a, b }: { steps: number; a: number; b: number },
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const state = ctx.mcpReq.requestState<ConfirmState | StepsState>();
  if (state === undefined) return askStep(1, { tool: CONFIRM_STEPS_TOOL.name, steps, a, b, answers: [] });
  if (state.tool !== CONFIRM_STEPS_TOOL.name || state.steps !== steps || state.a !== a || state.b !== b) {
    return { ...text('requestState does not match this call'), isError: true };
  }
  const step = state.answers.length + 1;
  if (inputResponse(ctx.mcpReq.inputResponses, stepKey(step)).kind === 'missing') return askStep(step, state);
  if (acceptedContent(ctx.mcpReq.inputResponses, stepKey(step), ConfirmSchema)?.ok !== true) return text('cancelled');
  const answered: StepsState = { ...state, answers: [...state.answers, true] };
  return step < steps ? askStep(step + 1, answered) : text(String(a + b));
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
    server.registerTool(
      CONFIRM_STEPS_TOOL.name,
      { description: CONFIRM_STEPS_TOOL.description, inputSchema: StepsSchema },
      confirmSteps,
    );
    for (const { tool, schema } of fillers) {
      server.registerTool(tool.name, { description: tool.description, inputSchema: schema }, () => fillerResult);
    }
    return server;
  };
}

/** The request header `name` as one string, if sent once. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** A 2025-era request, as the SDK's own entry would classify it (its classifier, on the parsed body). */
function isLegacy(req: IncomingMessage, body: unknown): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: req.method ?? 'POST',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    body,
  });
  return outcome.kind === 'legacy';
}

/** The SDK's stateless 2025-era idiom with JSON answers: a fresh server and transport per request. */
async function serveLegacyStateless(
  factory: () => McpServer,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const server = factory();
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/** Reads the whole body and parses it as JSON; answers 400 and resolves undefined when it is not JSON. */
function readJson(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        resolve(undefined);
      }
    });
  });
}

runMain(async () => {
  const env = readServerEnv();
  const setup = process.env['SDK_SETUP'] ?? 'best';
  if (setup !== 'best' && setup !== 'default') throw new Error(`SDK_SETUP must be best or default, got ${setup}`);
  const best = setup === 'best';
  const factory = buildFactory(env.tools);
  const handler = createMcpHandler(factory, {
    onerror: process.env['BENCH_DEBUG'] ? (error) => process.stderr.write(`${error.stack}\n`) : undefined,
    ...(best && { responseMode: 'json' as const, legacy: 'reject' as const }),
  });
  const nodeHandler = toNodeHandler(handler);

  const server = createServer((req, res) => {
    if (req.url !== MCP_PATH) {
      res.writeHead(404).end();
      return;
    }
    if (!best) {
      void nodeHandler(req, res);
      return;
    }
    if (req.method !== 'POST') {
      // GET/DELETE are 2025 session operations: the reject leg answers them as the entry does.
      void nodeHandler(req, res);
      return;
    }
    readJson(req, res)
      .then((parsed) => {
        if (!parsed) return;
        if (isLegacy(req, parsed.body)) return serveLegacyStateless(factory, req, res, parsed.body);
        return nodeHandler(req, res, parsed.body);
      })
      .catch((error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(env.port, env.host, resolve));
  announceListening(`sdk-v2 (${setup})`, env);
  exitOnSignal(async () => {
    await handler.close();
    await new Promise((resolve) => server.close(resolve));
  });
});
