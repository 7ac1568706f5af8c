import type { IncomingMessage } from 'node:http';

/** Thrown when a body exceeds the configured limit; the transport answers 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body exceeds ${limit} bytes`);
  }
}

/** The client went away before its body arrived: nothing to answer, nothing to log above debug. */
export class RequestAbortedError extends Error {
  constructor() {
    super('The client aborted the request before sending its whole body');
  }
}

/** Reads a request body up to `limit` bytes, refusing early on an oversized Content-Length. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.on('error', (error) =>
      reject(
        req.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? new RequestAbortedError() : error,
      ),
    );
    req.on('close', () => {
      if (!req.complete) reject(new RequestAbortedError());
    });
  });
}
