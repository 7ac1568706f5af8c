/**
 * HTTP POSTs for probes, prefetching and the MRTR flow loop (not for autocannon's load): status,
 * raw body and the JSON-RPC message.
 */
import { request, type Agent } from 'node:http';

export interface PostResult {
  readonly status: number;
  readonly contentType: string;
  readonly raw: string;
  readonly bytes: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The JSON-RPC message: the JSON body, or the last `data:` event of an SSE body. */
  readonly message: unknown;
}

/** Extracts the JSON-RPC message from a JSON or SSE (text/event-stream) body. */
export function parseMessage(contentType: string, raw: string): unknown {
  if (contentType.includes('text/event-stream')) {
    const data = raw
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter((line) => line.length > 0);
    return data.length > 0 ? JSON.parse(data[data.length - 1]!) : undefined;
  }
  return raw.length > 0 ? JSON.parse(raw) : undefined;
}

export function post(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs = 10_000,
  agent?: Agent,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
        ...(agent && { agent }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const buffer = Buffer.concat(chunks);
          const raw = buffer.toString('utf8');
          const contentType = String(res.headers['content-type'] ?? '');
          let message: unknown;
          try {
            message = parseMessage(contentType, raw);
          } catch {
            message = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            contentType,
            raw,
            bytes: buffer.length,
            headers: res.headers,
            message,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`POST ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Resolves true once anything answers HTTP on `url` (any status), false on connection errors. */
export function answersHttp(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(true));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
