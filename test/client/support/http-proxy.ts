import { createServer, request, type IncomingMessage, type Server } from 'node:http';
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
  close(): Promise<void>;
}

/**
 * A plain HTTP proxy on 127.0.0.1 in front of an upstream URL that records what passes through
 * and can answer POSTs with the transient error (503, Retry-After, -32051) a given number of times.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const seen: RecordingProxy['seen'] = [];
  let failures = 0;
  let retryAfter = '0';
  let open = 0;
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
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
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
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
