import { request, type ClientRequest, type IncomingMessage } from 'node:http';

/** An HTTP response read as Server-Sent Events, one JSON message per `data:` event. */
export interface SseStream {
  readonly response: IncomingMessage;
  readonly messages: any[];
  /** Resolves with the first message (already received or future) that matches. */
  waitFor(predicate: (message: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Resolves when the server ends the response. */
  readonly ended: Promise<void>;
  close(): void;
}

export function openSse(url: string, body: unknown, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const messages: any[] = [];
    const waiters: Array<{ predicate: (m: any) => boolean; resolve: (m: any) => void }> = [];
    const req: ClientRequest = request(url, { method: 'POST', headers }, (response) => {
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
    req.end(JSON.stringify(body));
  });
}
