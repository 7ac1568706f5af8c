import type { ServerResponse } from 'node:http';
import { toWireJson } from '../../protocol/wire-json.js';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

/**
 * An SSE response that knows how far its client is behind: the bytes written but not yet taken by
 * the connection (`res.writableLength`, which counts what waits in the response and in the socket,
 * not what the kernel already holds). `write()`'s false return is honoured through {@link behind}
 * and {@link drained}; {@link overBound} says the client fell further behind than the server keeps
 * for it, and the owner decides what that costs (a listen stream is closed, a call is aborted).
 */
export class SseStream {
  private opened = false;
  /** Something was written since the last {@link keepAlive} call. */
  private wrote = false;
  private drain: Promise<void> | undefined;

  constructor(
    readonly res: ServerResponse,
    /** `limits.maxStreamBacklogBytes`. */
    private readonly maxBacklogBytes: number,
  ) {}

  get closed(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  get isOpen(): boolean {
    return this.opened;
  }

  /** Bytes written and not yet taken by the connection. */
  get backlog(): number {
    return this.res.writableLength;
  }

  /** The last write was refused (the client is not reading as fast as we write): wait for 'drain'. */
  get behind(): boolean {
    return this.res.writableNeedDrain;
  }

  /** The client fell behind by more than the bound. */
  get overBound(): boolean {
    return this.res.writableLength > this.maxBacklogBytes;
  }

  /** Sends the SSE head (status 200) once. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.wrote = true;
    this.res.writeHead(200, SSE_HEADERS);
  }

  /**
   * One `message` event; false, and nothing written, when the stream is closed or its client is
   * already over the bound. The bound is checked before the write, not after: one message larger
   * than the bound is a client's backlog only if it does not take it, so a client that reads keeps
   * its stream (what the server holds stays under the bound plus one message).
   */
  send(message: unknown): boolean {
    if (this.closed || this.overBound) return false;
    this.open();
    this.wrote = true;
    this.res.write(`event: message\ndata: ${toWireJson(message)}\n\n`);
    return true;
  }

  /** A comment line (keep-alive), only on an open stream whose client keeps up. */
  comment(text: string): void {
    if (!this.opened || this.closed || this.behind) return;
    this.wrote = true;
    this.res.write(`: ${text}\n\n`);
  }

  /**
   * Called at a regular beat: a `keep-alive` comment when nothing was written since the last
   * beat, so that a stream that keeps talking never gets one.
   */
  keepAlive(): void {
    if (this.wrote) this.wrote = false;
    else this.comment('keep-alive');
  }

  /**
   * Settles when the client has taken what was written ('drain'), or the stream closed. One promise
   * is shared by every waiter, so a handler that does not await adds no listener per call.
   */
  drained(): Promise<void> {
    if (!this.behind || this.closed) return Promise.resolve();
    this.drain ??= new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        this.drain = undefined;
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
    return this.drain;
  }

  /** Drops the connection and what is buffered for it: a client this far behind would never catch up. */
  destroy(): void {
    if (!this.res.destroyed) this.res.destroy();
  }
}
