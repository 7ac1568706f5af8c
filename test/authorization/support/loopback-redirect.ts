import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A native client's loopback redirect receiver (RFC 8252 §7.3): an HTTP server on 127.0.0.1
 * (ephemeral port) that captures `GET <path>?code=…&state=…&iss=…` (or `error=…`) and answers a
 * small HTML page. Callbacks are queued: `next()` returns the oldest one not yet taken, or waits.
 *
 * ```ts
 * const receiver = await LoopbackRedirectReceiver.start();
 * // … the browser is sent to receiver.redirectUri …
 * const query = await receiver.next();
 * expect(query.get('state')).toBe(state);
 * ```
 */
export class LoopbackRedirectReceiver {
  /** Every callback received, in order (taken or not). */
  readonly received: URLSearchParams[] = [];
  private readonly queue: URLSearchParams[] = [];
  private readonly waiters: ((query: URLSearchParams) => void)[] = [];

  private constructor(
    private readonly server: Server,
    /** The redirect URI to register: `http://127.0.0.1:<port><path>`. */
    readonly redirectUri: string,
  ) {}

  static async start(path = '/callback'): Promise<LoopbackRedirectReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new LoopbackRedirectReceiver(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    );
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', receiver.redirectUri);
      if (req.method !== 'GET' || url.pathname !== path) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      receiver.deliver(url.searchParams);
      const outcome = url.searchParams.has('error') ? 'Authorization failed' : 'Signed in';
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(`<!doctype html><title>${outcome}</title><h1>${outcome}</h1><p>You can close this window.</p>`);
    });
    return receiver;
  }

  /** The next callback's query (one already received and not yet taken, else the next to come). */
  next(timeoutMs = 15_000): Promise<URLSearchParams> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise<URLSearchParams>((resolve, reject) => {
      const waiter = (query: URLSearchParams): void => {
        clearTimeout(timer);
        resolve(query);
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`LoopbackRedirectReceiver: no callback at ${this.redirectUri} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Callbacks received and not yet taken by `next()`. */
  get pending(): number {
    return this.queue.length;
  }

  /** Drops callbacks not yet taken (between tests). */
  clear(): void {
    this.queue.length = 0;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private deliver(query: URLSearchParams): void {
    this.received.push(query);
    const waiter = this.waiters.shift();
    if (waiter) waiter(query);
    else this.queue.push(query);
  }
}
