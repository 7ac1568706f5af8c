import type { Readable } from 'node:stream';
import { failure, parseErrorOutcome } from '../../protocol/rpc-outcome.js';
import type { JsonRpcResponse } from '../../protocol/json-rpc.js';
import { McpError } from '../../protocol/mcp.error.js';
import { LineSplitter, type LineEvent } from './line-splitter.js';

/**
 * One line of stdio input: a JSON value to answer, or a line that is not one (too large, not
 * UTF-8 JSON) with the error response it gets, so the connection never sees the raw bytes.
 */
export type StdioLine =
  | { readonly kind: 'message'; readonly message: unknown }
  | { readonly kind: 'refused'; readonly response: JsonRpcResponse };

/** Where a {@link StdioLineReader} delivers what it read. */
export interface StdioLineHandlers {
  /** One line, in input order. */
  readonly line: (line: StdioLine) => void;
  /** The input ended (or failed) and its last line was delivered; reading has stopped. */
  readonly ended: () => void;
  /** The input failed; {@link ended} follows unless reading had already stopped. */
  readonly failed: (error: NodeJS.ErrnoException) => void;
}

/**
 * The reading side of a stdio connection: newline-delimited JSON from the input, bounded per line,
 * and paused while the output is behind so a client that does not read its answers cannot keep
 * sending requests.
 */
export class StdioLineReader {
  private readonly splitter: LineSplitter;
  // Fatal, so invalid UTF-8 is a parse error rather than U+FFFD silently reaching a handler.
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private active = false;
  private paused = false;

  constructor(
    private readonly input: Readable,
    private readonly maxLineBytes: number,
    private readonly handlers: StdioLineHandlers,
  ) {
    this.splitter = new LineSplitter(maxLineBytes);
  }

  /** Whether the input is still being read (started, and neither ended nor stopped). */
  get reading(): boolean {
    return this.active;
  }

  start(): void {
    this.active = true;
    const { input } = this;
    input.on('data', this.onData);
    input.once('end', this.onEnd);
    input.once('close', this.onEnd);
    input.on('error', this.onError);
  }

  /** The output refused more (backpressure): stop taking requests until it drains. */
  pause(): void {
    if (!this.active || this.paused) return;
    this.paused = true;
    this.input.pause();
  }

  /** The output drained: take requests again, unless reading stopped meanwhile. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (this.active) this.input.resume();
  }

  /** Stops reading without delivering what is left of a partial line. */
  stop(): void {
    if (!this.active) return;
    this.active = false;
    const { input } = this;
    input.off('data', this.onData);
    input.off('end', this.onEnd);
    input.off('close', this.onEnd);
    // Paused and without listeners, stdin no longer keeps the process alive.
    input.pause();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    if (!this.active) return;
    this.deliver(this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk));
  };

  private readonly onEnd = (): void => {
    if (!this.active) return;
    this.deliver(this.splitter.end());
    this.stop();
    this.handlers.ended();
  };

  private readonly onError = (error: NodeJS.ErrnoException): void => {
    this.handlers.failed(error);
    this.onEnd();
  };

  private deliver(events: readonly LineEvent[]): void {
    for (const event of events) {
      this.handlers.line(event.kind === 'oversized' ? this.oversized() : this.parse(event.bytes));
    }
  }

  private oversized(): StdioLine {
    const error = McpError.invalidRequest(`Message too large: a line may hold at most ${this.maxLineBytes} bytes`);
    return { kind: 'refused', response: failure(null, error).response };
  }

  private parse(bytes: Buffer): StdioLine {
    try {
      return { kind: 'message', message: JSON.parse(this.decoder.decode(bytes)) };
    } catch {
      return { kind: 'refused', response: parseErrorOutcome().response };
    }
  }
}
