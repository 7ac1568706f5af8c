import { request, type Agent } from 'node:http';

/** Hand-built MCP 2026-07-28 requests over node:http (full control of Host and Origin), for wire-level assertions. */
export const PROTOCOL = '2026-07-28';

export function envelope(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export function mcpHeaders(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': method,
    ...(name !== undefined && { 'mcp-name': name }),
  };
}

/** How a request leaves: a keep-alive agent of the caller's, a chosen source address. */
export interface SendOptions {
  readonly agent?: Agent;
  /** The loopback address the request leaves from (the server sees it as the client's address). */
  readonly localAddress?: string;
}

/**
 * Sends one HTTP request over node:http and reads the whole answer; `body` goes as is (string) or
 * as JSON. The one raw HTTP client of the tests and benchmarks.
 */
export function send(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
  { agent, localAddress }: SendOptions = {},
): Promise<RawResponse> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers, ...(agent && { agent }), ...(localAddress && { localAddress }) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const post = (
  url: string,
  body: unknown,
  headers?: Record<string, string>,
  options?: SendOptions,
): Promise<RawResponse> => send(url, 'POST', body, headers, options);

const NAMED = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** The `Mcp-Name` a request routes by: the tool, prompt or resource it names, else the task it is about. */
export function mcpNameOf(method: string, params: Record<string, unknown>): string | undefined {
  const name = NAMED.has(method) ? (params['name'] ?? params['uri']) : params['taskId'];
  return name === undefined || name === null ? undefined : String(name);
}

export interface RpcOptions extends SendOptions {
  /** Client capabilities declared in `_meta` (default: none). */
  readonly capabilities?: Record<string, unknown>;
  /** More `_meta` entries, beside the envelope's. */
  readonly meta?: Record<string, unknown>;
  /** More HTTP headers, beside (or over) the routing headers. */
  readonly headers?: Record<string, string>;
  /** The JSON-RPC id (default: the next number). */
  readonly id?: string | number;
}

let nextId = 1;

/** A well-formed 2026-07-28 request for `method`, with matching headers; the answer carries the id it was sent with. */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  { capabilities = {}, meta, headers, id = nextId++, ...sendOptions }: RpcOptions = {},
): Promise<RawResponse & { readonly id: string | number }> {
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...envelope(capabilities), ...meta } } };
  const response = await post(url, body, { ...mcpHeaders(method, mcpNameOf(method, params)), ...headers }, sendOptions);
  return { ...response, id };
}
