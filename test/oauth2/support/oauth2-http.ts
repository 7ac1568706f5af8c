import { createServer } from 'node:net';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';

export type AdapterKind = 'express' | 'fastify';
export const ADAPTERS: readonly AdapterKind[] = ['express', 'fastify'];
export const PROTOCOL = '2026-07-28';

/**
 * A free port on 127.0.0.1. The server's canonical URI (the token audience) is part of its
 * configuration, so the port must be known before the application is built.
 */
export async function reservePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface RunningServer {
  readonly app: INestApplication;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** The MCP endpoint, which is also the canonical URI. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the module on 127.0.0.1:`port` with the given adapter. */
export async function startServer(module: Type, adapter: AdapterKind, port: number): Promise<RunningServer> {
  const app = await NestFactory.create(module, adapter === 'express' ? new ExpressAdapter() : new FastifyAdapter(), {
    logger: false,
    abortOnError: false,
  });
  await app.listen(port, '127.0.0.1');
  const origin = `http://127.0.0.1:${port}`;
  return { app, origin, url: `${origin}/mcp`, close: () => app.close() };
}

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

let nextId = 1;

/** One MCP 2026-07-28 request over HTTP, with the required headers and `_meta`, and an optional bearer token. */
export async function mcp(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<McpReply> {
  const name = (params['name'] ?? params['uri']) as string | undefined;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': method,
    ...(name !== undefined && ['tools/call', 'prompts/get', 'resources/read'].includes(method)
      ? { 'mcp-name': name }
      : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL,
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? { elicitation: { form: {} } },
        'io.modelcontextprotocol/clientInfo': { name: 'oauth2-e2e', version: '1.0.0' },
      },
    },
  };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed };
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
