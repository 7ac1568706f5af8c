import { rpc } from '../../support/raw-mcp.js';

export interface McpReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
}

export interface CallOptions {
  readonly token?: string;
  readonly headers?: Record<string, string>;
  readonly capabilities?: Record<string, unknown>;
}

/**
 * One MCP 2026-07-28 request (test/support/raw-mcp.ts) with an optional bearer token, its answer as
 * the OAuth tests read it: the headers as fetch's Headers, the body parsed (or as text).
 */
export async function mcp(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<McpReply> {
  const reply = await rpc(url, method, params, {
    capabilities: options.capabilities ?? { elicitation: { form: {} } },
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return { status: reply.status, headers, body: reply.json ?? (reply.text === '' ? undefined : reply.text) };
}

/** Parses a `WWW-Authenticate: Bearer k="v", …` header into its parameters. */
export function parseBearerChallenge(header: string | null): Record<string, string> {
  if (header === null || !/^Bearer /.test(header)) throw new Error(`not a Bearer challenge: ${header}`);
  const params: Record<string, string> = {};
  for (const match of header.slice(7).matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) {
    params[match[1]!] = match[2]!.replace(/\\(.)/g, '$1');
  }
  return params;
}
