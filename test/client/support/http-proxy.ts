import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  /** The proxy's address for the upstream's path. */
  readonly url: string;
  /** Every request it saw: method and the session header. */
  readonly seen: Array<{ method: string; session?: string }>;
  /** Requests still open (a 2025-era GET stream, say). */
  open(): number;
  /** The next `count` POSTs are answered 503 with `Retry-After: retryAfter` and -32051. */
  failNext(count: number, retryAfter: string): void;
  /**
   * From now on, every `tools/call` of `tool` is answered by the proxy itself: a result of `bytes`
   * characters, as one event of an SSE stream (or a JSON body), written as fast as the reader takes it.
   */
  flood(tool: string, bytes: number, as?: 'sse' | 'json'): void;
  /** From now on, every `tools/call` of `tool` is answered by the proxy itself with `result` as the JSON-RPC result. */
  garble(tool: string, result: unknown): void;
  /** Each flood answered so far. */
  readonly floods: Flood[];
  close(): Promise<void>;
}

/** One flooding answer: how far it got before its reader went away. */
export interface Flood {
  /** Bytes of the result's text written to the socket. */
  written: number;
  /** Whether all of it was written. */
  finished: boolean;
  /** Settles when the response's connection is closed. */
  readonly closed: Promise<void>;
}

/** Writes a tools/call result of `bytes` characters (one SSE event, or JSON) in 64 KiB chunks, waiting on backpressure. */
function writeFlood(res: ServerResponse, id: unknown, bytes: number, as: 'sse' | 'json'): Flood {
  const flood = { written: 0, finished: false, closed: new Promise<void>((resolve) => res.on('close', resolve)) };
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const sse = as === 'sse';
  res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
  const message = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  res.write(sse ? `event: message\ndata: ${message}` : message);
  const more = (): void => {
    while (flood.written < bytes && !res.destroyed) {
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - flood.written));
      flood.written += part.length;
      if (!res.write(part)) return void res.once('drain', more);
    }
    if (res.destroyed) return;
    flood.finished = true;
    res.end(sse ? '"}]}}\n\n' : '"}]}}');
  };
  more();
  return flood;
}

/** The id of a JSON-RPC `tools/call` of `tool` in `body`, if it is one. */
function toolCallId(body: Buffer, tool: string): { id: unknown } | undefined {
  try {
    const message = JSON.parse(body.toString('utf8')) as {
      id?: unknown;
      method?: unknown;
      params?: { name?: unknown };
    };
    return message.method === 'tools/call' && message.params?.name === tool ? { id: message.id } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A plain HTTP proxy on 127.0.0.1 in front of an upstream URL that records what passes through,
 * can answer POSTs with the transient error (503, Retry-After, -32051) a given number of times, and
 * can answer a tool's calls with an endless-looking result (a flood) or a result of its choosing.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const seen: RecordingProxy['seen'] = [];
  let failures = 0;
  let retryAfter = '0';
  let open = 0;
  let flooded: { tool: string; bytes: number; as: 'sse' | 'json' } | undefined;
  let garbled: { tool: string; result: unknown } | undefined;
  const floods: Flood[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const session = req.headers['mcp-session-id'];
    seen.push({ method: req.method ?? '', ...(typeof session === 'string' && { session }) });
    if (req.method === 'POST' && failures > 0) {
      failures--;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': retryAfter });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32051,
            message: 'Temporarily unavailable',
            data: { retryAfterMs: Number(retryAfter) * 1000 },
          },
        }),
      );
      return;
    }
    open++;
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const call = flooded && req.method === 'POST' ? toolCallId(body, flooded.tool) : undefined;
      if (call && flooded) {
        floods.push(writeFlood(res, call.id, flooded.bytes, flooded.as));
        return;
      }
      const bad = garbled && req.method === 'POST' ? toolCallId(body, garbled.tool) : undefined;
      if (bad && garbled) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: bad.id, result: garbled.result }));
        return;
      }
      const forwarded = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.destroy());
      res.on('close', () => forwarded.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    open: () => open,
    failNext: (count, after) => {
      failures = count;
      retryAfter = after;
    },
    flood: (tool, bytes, as = 'sse') => {
      flooded = { tool, bytes, as };
    },
    garble: (tool, result) => {
      garbled = { tool, result };
    },
    floods,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
