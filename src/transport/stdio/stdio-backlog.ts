import type { Writable } from 'node:stream';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/json-rpc.js';
import { McpCallAbortedError } from '../../protocol/mcp-call-aborted.error.js';

/** Any line a stdio connection writes. */
export type StdioOutgoingMessage = JsonRpcResponse | JsonRpcNotification | JsonRpcRequest;

/**
 * What a stdio connection writes besides responses, bounded like an HTTP stream by how far the
 * client is behind on the output (`output.writableLength` against `limits.maxStreamBacklogBytes`),
 * so a client that stops reading cannot make the server buffer without limit.
 */
export class StdioBacklog {
  private drain: Promise<void> | undefined;

  constructor(
    private readonly output: Writable,
    private readonly maxBacklogBytes: number,
    /** Writes one message as one line. */
    private readonly write: (message: StdioOutgoingMessage) => void,
  ) {}

  /**
   * A call's notification or pushed request: while the client is behind, progress is dropped and
   * the rest hands back a promise that settles once it caught up; a client already further behind
   * than the bound gets the call aborted (`client-behind`) and the message is not written, nor are
   * the call's later ones. The bound is checked before the write, so one line larger than the
   * bound reaches a client that reads it. The connection itself stays: its other calls still answer.
   */
  forCall(message: JsonRpcNotification | JsonRpcRequest, abort: AbortController): void | Promise<void> {
    const { output } = this;
    const reason: unknown = abort.signal.reason;
    if (reason instanceof McpCallAbortedError && reason.reason === 'client-behind') return;
    if (output.writableNeedDrain && message.method === 'notifications/progress') return;
    if (output.writableLength > this.maxBacklogBytes) {
      abort.abort(
        new McpCallAbortedError(
          `The client fell more than ${this.maxBacklogBytes} bytes behind on the output`,
          'client-behind',
        ),
      );
      return;
    }
    this.write(message);
    if (output.writableNeedDrain) return this.drained();
  }

  /** A session's list_changed or resource update: dropped while the client is further behind than the bound. */
  unsolicited(message: StdioOutgoingMessage): void {
    if (this.output.writableLength > this.maxBacklogBytes && !('id' in message)) return;
    this.write(message);
  }

  /** Settles once the output took what was written (or went away); one promise for every waiter. */
  private drained(): Promise<void> {
    const { output } = this;
    this.drain ??= new Promise<void>((resolve) => {
      const done = () => {
        output.off('drain', done);
        output.off('close', done);
        output.off('error', done);
        this.drain = undefined;
        resolve();
      };
      output.on('drain', done);
      output.on('close', done);
      output.on('error', done);
    });
    return this.drain;
  }
}
