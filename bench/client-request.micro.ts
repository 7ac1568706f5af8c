/**
 * What the official client (`@modelcontextprotocol/client`) spends on one `tools/call` of its own,
 * the network taken away: the client connects to our benchmark app (Fastify, in this process, on
 * loopback, pinned to 2026-07-28), records one real answer of `add(2,3)`, and from then on its fetch
 * hands back that answer (with the request's id) as a new `Response` without sending anything. CPU
 * of this process per call, 10 calls in flight:
 *
 *   answer only    the canned `Response` built and its JSON read (what any fetch-based client pays)
 *   default        `client.request()` with no result schema (the client finds the method's own)
 *   schema         `client.request()` given `specTypeSchemas.CallToolResult`, as the gateway sends
 *
 * The gateway's leg to an upstream costs at least this plus the request's own network work; it is
 * the figure to set against what the upstream spends serving the call (bench/RESULTS.md, issue 43).
 * Reported, never asserted.
 *
 *   node bench/out/build/bench/client-request.micro.js [--smoke]
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport, specTypeSchemas } from '@modelcontextprotocol/client';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { pathToFileURL } from 'node:url';

import { buildAppModule } from './servers/mocapi-app.js';

export interface ClientRequestRow {
  readonly mode: 'answer only' | 'default' | 'schema';
  /** CPU of this process per call, µs. */
  readonly us: number;
}

const CONCURRENCY = 10;
const ADD = { method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } } as const;

/** A fetch that goes to the network until an answer of `tools/call` is recorded, then answers with it. */
function recordingFetch() {
  const state = { recording: false, answer: undefined as string | undefined, type: 'application/json' };
  const fetchImpl: typeof fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : undefined;
    if (state.answer !== undefined && body?.includes('"tools/call"')) {
      const { id } = JSON.parse(body) as { id: number };
      return new Response(state.answer.replace('"id":0', `"id":${id}`), {
        status: 200,
        headers: { 'content-type': state.type },
      });
    }
    const response = await fetch(input, init);
    if (!state.recording || !body?.includes('"tools/call"')) return response;
    const text = await response.text();
    state.answer = text.replace(/"id":\d+/, '"id":0');
    state.type = response.headers.get('content-type') ?? state.type;
    return new Response(text, { status: response.status, headers: response.headers });
  };
  return { fetchImpl, state };
}

async function cpuPerCall(count: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(count, 2000); i++) await call();
  let left = count;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) await call();
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

export async function runClientRequest(count: number): Promise<ClientRequestRow[]> {
  const app = await NestFactory.create<NestFastifyApplication>(buildAppModule(10), new FastifyAdapter(), {
    logger: ['error'],
  });
  await app.listen(0, '127.0.0.1');
  const url = new URL(`${await app.getUrl()}/mcp`.replace('[::1]', '127.0.0.1'));
  const { fetchImpl, state } = recordingFetch();
  const client = new Client(
    { name: 'client-request-micro', version: '1' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: fetchImpl }));
    state.recording = true;
    await client.request(ADD);
    state.recording = false;
    const check = (result: unknown): void => {
      const text = (result as { content?: Array<{ text?: string }> }).content?.[0]?.text;
      if (text !== '5') throw new Error(`add(2,3) answered ${JSON.stringify(result)}`);
    };
    const calls = {
      'answer only': async () => {
        const response = await fetchImpl(url, { method: 'POST', body: JSON.stringify({ ...ADD, id: 1 }) });
        check(((await response.json()) as { result: unknown }).result);
      },
      default: async () => check(await client.request(ADD)),
      schema: async () => check(await client.request(ADD, specTypeSchemas.CallToolResult)),
    } as const;
    const rows: ClientRequestRow[] = [];
    for (const mode of ['answer only', 'default', 'schema'] as const) {
      rows.push({ mode, us: await cpuPerCall(count, calls[mode]) });
    }
    return rows;
  } finally {
    await client.close();
    await app.close();
  }
}

export function renderClientRequest(rows: readonly ClientRequestRow[]): string {
  return rows.map((row) => `${row.mode.padEnd(12)}  ${row.us.toFixed(1).padStart(6)} us CPU per call`).join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = process.argv.includes('--smoke') ? 2000 : 30_000;
  runClientRequest(count).then(
    (rows) => console.log(`${process.version}\n${renderClientRequest(rows)}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
