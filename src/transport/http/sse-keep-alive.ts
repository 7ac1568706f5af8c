import type { SseStream } from './sse-stream.js';

/**
 * Keeps a server's open SSE streams from being closed as idle by proxies and load balancers: one
 * timer for all of them beats every half `intervalMs`, and a stream that wrote nothing since the
 * beat before gets a `: keep-alive` comment (see {@link SseStream.keepAlive}; none while its client
 * is behind). So no stream stays silent longer than `intervalMs`, and a stream that keeps talking,
 * or ends sooner, gets none. A stream is kept from its head until its response closes; with no
 * stream open, no timer runs.
 */
export class SseKeepAlive {
  private readonly streams = new Set<SseStream>();
  private timer: NodeJS.Timeout | undefined;

  /** `intervalMs` is `sseKeepAliveMs`; 0 keeps nothing. */
  constructor(private readonly intervalMs: number) {}

  /** How many streams are kept now. */
  get size(): number {
    return this.streams.size;
  }

  keep(stream: SseStream): void {
    if (this.intervalMs === 0 || stream.closed || this.streams.has(stream)) return;
    this.streams.add(stream);
    // 'close' comes once; `on` spares the wrapper `once` would add to every stream.
    stream.res.on('close', () => this.release(stream));
    this.timer ??= setInterval(() => this.beat(), Math.max(1, Math.floor(this.intervalMs / 2))).unref();
  }

  private release(stream: SseStream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private beat(): void {
    for (const stream of this.streams) stream.keepAlive();
  }
}
