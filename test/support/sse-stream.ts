import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { envelope, mcpHeaders } from './raw-mcp.js';

/** An HTTP response read as Server-Sent Events, one JSON message per `data:` event. */
export interface SseStream {
  readonly response: IncomingMessage;
  readonly messages: any[];
  /** The comment lines received (`: keep-alive` arrives as 'keep-alive'). */
  readonly comments: string[];
  /** Resolves with the first message (already received or future) that matches. */
  waitFor(predicate: (message: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Resolves when the server ends the response. */
  readonly ended: Promise<void>;
  close(): void;
}

/** POSTs `body` (or, when `body` is undefined, sends a GET) and reads the answer as SSE. */
export function openSse(url: string, body: unknown, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const messages: any[] = [];
    const comments: string[] = [];
    const waiters: Array<{ predicate: (m: any) => boolean; resolve: (m: any) => void }> = [];
    const method = body === undefined ? 'GET' : 'POST';
    const req: ClientRequest = request(url, { method, headers }, (response) => {
      let buffer = '';
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => (endResolve = r));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          for (const line of event.split('\n')) if (line.startsWith(':')) comments.push(line.slice(1).trimStart());
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (!data) continue;
          const message = JSON.parse(data);
          messages.push(message);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(message)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(message);
            }
          }
        }
      });
      response.on('end', endResolve);
      response.on('close', endResolve);
      resolve({
        response,
        messages,
        comments,
        ended,
        waitFor: (predicate, timeoutMs = 5000) => {
          const found = messages.find(predicate);
          if (found) return Promise.resolve(found);
          return new Promise((res, rej) => {
            const timer = setTimeout(
              () => rej(new Error(`No matching SSE message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`)),
              timeoutMs,
            );
            waiters.push({ predicate, resolve: (m) => (clearTimeout(timer), res(m)) });
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A `subscriptions/listen` request (2026-07-28 wire) with this filter, its stream read as SSE. */
export function openListen(url: string, id: string, notifications: Record<string, unknown>): Promise<SseStream> {
  return openSse(
    url,
    { jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications, _meta: envelope() } },
    mcpHeaders('subscriptions/listen'),
  );
}
