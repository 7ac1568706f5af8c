import type { INestApplication, ModuleMetadata, Type } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import type { CallToolResult, InputRequest, InputResponse } from '../protocol/wire-types.js';
import { PROTOCOL_VERSION } from '../protocol/protocol-version.js';
import { McpCallRound, type McpRoundResult } from './mcp-call-round.js';
import { McpTestError } from './mcp-test-error.js';
import { MCP_APP_MIME_TYPE, MCP_UI_EXTENSION } from '../discovery/mcp-apps-support.js';

/** @publicApi */
export interface McpTestClientOptions {
  /** The HTTP adapter to run on. Default 'express'. */
  adapter?: 'express' | 'fastify';
  /** Client capabilities declared on every request. Default `{ elicitation: {} }`. */
  capabilities?: Record<string, unknown>;
  /**
   * Declares that this client renders MCP Apps (`extensions["io.modelcontextprotocol/ui"]` with the
   * app MIME type), added to `capabilities`. Default false: the client sees what hosts without apps see.
   */
  apps?: boolean;
  /** The MCP endpoint path. Default '/mcp'. */
  path?: string;
  /** Adjusts the testing module before it compiles, e.g. `b => b.overrideProvider(X).useValue(y)`. */
  configure?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** HTTP headers sent with every request, e.g. `{ authorization: 'Bearer ...' }` for a protected server. */
  headers?: Record<string, string>;
}

/** An MCP App's document as {@link McpTestClient.readAppResource} reads it. */
export interface McpAppDocument {
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** The HTML (a base64 blob decoded). */
  readonly html: string;
  /** The contents' `_meta.ui` (CSP, permissions, domain, prefersBorder), if any. */
  readonly ui: Record<string, unknown> | undefined;
}

/** Answers one input request of a flow driven by {@link McpTestClient.callToolAnswering}. */
export type McpAnswerer = (request: InputRequest, key: string) => InputResponse | Promise<InputResponse>;

/**
 * Tests your MCP tools without writing HTTP by hand: it starts your module in a real Nest
 * application on 127.0.0.1 and speaks 2026-07-28 to it, including multi-round elicitation.
 *
 * ```ts
 * const mcp = await McpTestClient.start({ imports: [AppModule] });
 * const round = await mcp.callTool('book_table', { date: '2026-12-01', partySize: 2 });
 * expect(round.inputRequests['elicit-1'].method).toBe('elicitation/create');
 * const done = await round.respond({ 'elicit-1': { action: 'accept', content: { time: '19:00' } } });
 * await mcp.close();
 * ```
 *
 * @publicApi
 */
export class McpTestClient {
  private nextId = 1;

  private constructor(
    readonly app: INestApplication,
    readonly url: string,
    private readonly capabilities: Record<string, unknown>,
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  /** Compiles a testing module from `module` (a module class or metadata) and serves it. */
  static async start(
    module: Type<unknown> | ModuleMetadata,
    options: McpTestClientOptions = {},
  ): Promise<McpTestClient> {
    const metadata: ModuleMetadata = typeof module === 'function' ? { imports: [module] } : module;
    const builder = Test.createTestingModule(metadata);
    const compiled = await (options.configure ? options.configure(builder) : builder).compile();
    const adapter =
      options.adapter === 'fastify'
        ? new (await import('@nestjs/platform-fastify')).FastifyAdapter()
        : new (await import('@nestjs/platform-express')).ExpressAdapter();
    const app = compiled.createNestApplication(adapter, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    return new McpTestClient(
      app,
      `http://127.0.0.1:${port}${options.path ?? '/mcp'}`,
      options.apps
        ? withApps(options.capabilities ?? { elicitation: {} })
        : (options.capabilities ?? { elicitation: {} }),
      options.headers,
    );
  }

  /** Sends any request and resolves to its result; a JSON-RPC error rejects with {@link McpTestError}. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<McpRoundResult> {
    const name = params['name'] ?? params['uri'];
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL_VERSION,
        'mcp-method': method,
        ...(typeof name === 'string' && { 'mcp-name': name }),
        ...this.headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: this.nextId++,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
            'io.modelcontextprotocol/clientCapabilities': this.capabilities,
            'io.modelcontextprotocol/clientInfo': { name: 'mocapi-test-client', version: '1.0.0' },
          },
        },
      }),
    });
    const message = await readMessage(response);
    const { error } = message;
    if (typeof error === 'object' && error !== null) {
      throw new McpTestError(error.code, error.message, error.data, response.status);
    }
    if (message.result === undefined) {
      // Not JSON-RPC at all: an HTTP-level refusal such as an OAuth 401 ({ error, error_description }).
      const body = message as Record<string, unknown>;
      const reason = String(body['error_description'] ?? body['error'] ?? 'no JSON-RPC result');
      throw new McpTestError(0, `HTTP ${response.status}: ${reason}`, body, response.status);
    }
    return message.result;
  }

  async listTools(): Promise<Array<Record<string, unknown>>> {
    const tools: Array<Record<string, unknown>> = [];
    let cursor: unknown;
    do {
      const page = await this.request('tools/list', cursor ? { cursor } : {});
      tools.push(...(page['tools'] as Array<Record<string, unknown>>));
      cursor = page['nextCursor'];
    } while (cursor);
    return tools;
  }

  /** The tools linked to an MCP App (`_meta.ui.resourceUri`), as this client is shown them. */
  async listAppTools(): Promise<Array<Record<string, unknown>>> {
    return (await this.listTools()).filter((tool) => {
      const ui = (tool['_meta'] as { ui?: { resourceUri?: unknown } } | undefined)?.ui;
      return typeof ui?.resourceUri === 'string';
    });
  }

  /**
   * Reads an MCP App's resource and returns its document; rejects when the resource is not an app
   * (`text/html;profile=mcp-app`) or needs input.
   */
  async readAppResource(uri: string): Promise<McpAppDocument> {
    const round = await this.readResource(uri);
    if (!round.isComplete) throw new Error(`Reading ${uri} asked for input instead of answering`);
    const contents = (round.result['contents'] as Array<Record<string, unknown>> | undefined) ?? [];
    const content = contents.find((c) => c['uri'] === uri) ?? contents[0];
    if (!content || content['mimeType'] !== MCP_APP_MIME_TYPE) {
      throw new Error(`${uri} is not an MCP App resource (mimeType ${String(content?.['mimeType'])})`);
    }
    const html =
      typeof content['text'] === 'string'
        ? content['text']
        : Buffer.from(String(content['blob'] ?? ''), 'base64').toString('utf8');
    const ui = (content['_meta'] as { ui?: Record<string, unknown> } | undefined)?.ui;
    return { uri, mimeType: content['mimeType'] as string, html, ui };
  }

  /** Calls a tool once; the round tells whether it completed or asks for input. */
  callTool(name: string, args: Record<string, unknown> = {}): Promise<McpCallRound> {
    return this.round('tools/call', { name, arguments: args });
  }

  getPrompt(name: string, args: Record<string, string> = {}): Promise<McpCallRound> {
    return this.round('prompts/get', { name, arguments: args });
  }

  readResource(uri: string): Promise<McpCallRound> {
    return this.round('resources/read', { uri });
  }

  /**
   * Calls a tool and answers every input request with `answer` until it completes. Resolves to the
   * final result and every round, for assertions on the questions asked.
   */
  async callToolAnswering(
    name: string,
    args: Record<string, unknown>,
    answer: McpAnswerer,
    maxRounds = 20,
  ): Promise<{ result: CallToolResult; rounds: McpCallRound[] }> {
    const rounds: McpCallRound[] = [];
    let round = await this.callTool(name, args);
    rounds.push(round);
    while (!round.isComplete) {
      if (rounds.length > maxRounds) throw new Error(`${name} still asks for input after ${maxRounds} rounds`);
      const responses: Record<string, InputResponse> = {};
      for (const [key, request] of Object.entries(round.inputRequests)) responses[key] = await answer(request, key);
      round = await round.respond(responses);
      rounds.push(round);
    }
    return { result: round.result as unknown as CallToolResult, rounds };
  }

  close(): Promise<void> {
    return this.app.close();
  }

  private async round(method: string, params: Record<string, unknown>): Promise<McpCallRound> {
    const result = await this.request(method, params);
    return new McpCallRound(result, (inputResponses, requestState) =>
      this.round(method, { ...params, inputResponses, ...(requestState !== undefined && { requestState }) }),
    );
  }
}

function withApps(capabilities: Record<string, unknown>): Record<string, unknown> {
  const extensions = (capabilities['extensions'] as Record<string, unknown> | undefined) ?? {};
  return { ...capabilities, extensions: { ...extensions, [MCP_UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } };
}

/** The final JSON-RPC message of a JSON or SSE response. */
async function readMessage(response: Response): Promise<{
  result?: McpRoundResult;
  error?: { code: number; message: string; data?: unknown } | string;
  [key: string]: unknown;
}> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return text === '' ? {} : JSON.parse(text);
  const events = text
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n'),
    )
    .filter(Boolean)
    .map((data) => JSON.parse(data));
  return events.reverse().find((m) => 'result' in m || 'error' in m) ?? {};
}
