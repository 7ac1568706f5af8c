import { request } from 'node:http';

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

/** Sends one HTTP request; `body` goes as is (string) or as JSON. */
export function send(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
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
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export const post = (url: string, body: unknown, headers?: Record<string, string>): Promise<RawResponse> =>
  send(url, 'POST', body, headers);

let nextId = 1;

/** A well-formed request for `method`, with matching headers. */
export function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
): Promise<RawResponse> {
  const name = (params['name'] ?? params['uri']) as string | undefined;
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: envelope(capabilities) } };
  return post(
    url,
    body,
    mcpHeaders(method, ['tools/call', 'prompts/get', 'resources/read'].includes(method) ? name : undefined),
  );
}
