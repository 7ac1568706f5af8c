import type { Readable, Writable } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { McpDispatcher } from '../../dispatch/mcp-dispatcher.js';
import { failure } from '../../protocol/rpc-outcome.js';
import { McpInbound } from '../../calls/mcp-inbound.js';
import {
  isJsonRpcId,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../../protocol/json-rpc.js';
import type { McpProtocolEra } from '../../protocol/protocol-era.js';
import { LegacyStdioSession, type LegacyStdioServices } from './legacy-stdio-session.js';
import { McpError } from '../../protocol/mcp.error.js';
import { McpHttpChallenge } from '../../protocol/mcp-http-challenge.js';
import { StdioLineReader, type StdioLine } from './stdio-line-reader.js';
import { isJsonObject } from '../../protocol/is-json-object.js';
import { McpCallAbortedError } from '../../protocol/mcp-call-aborted.error.js';
import { LIMIT_DEFAULTS } from '../../core/mcp-limits.options.js';
import { StdioBacklog, type StdioOutgoingMessage } from './stdio-backlog.js';
import { logStack } from '../../telemetry/log-stack.js';
import { logText } from '../../protocol/log-text.js';
import { toWireJson } from '../../protocol/wire-json.js';

const STDIO = Object.freeze({ kind: 'stdio' } as const);

/** What {@link McpStdioConnection} needs; `McpStdioTransport.listen` fills in the defaults. */
export interface McpStdioConnectionOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** The largest line accepted, in bytes (newline excluded). */
  readonly maxLineBytes: number;
  readonly logger?: Logger;
  /**
   * How far the client may fall behind on the output, in bytes written but not yet taken
   * (`limits.maxStreamBacklogBytes`). Default 1048576.
   */
  readonly maxBacklogBytes?: number;
  /** The 2025-era leg; without it every connection is served as 2026-07-28. */
  readonly legacy?: LegacyStdioServices;
}

/**
 * One stdio session: newline-delimited JSON-RPC in, one line of JSON per message out. Requests are
 * answered concurrently (responses carry their id, so they may come back in any order); a request's
 * notifications go out before its response. Only JSON-RPC ever reaches the output; diagnostics go
 * to the logger (stderr under `bootstrapStdio`).
 *
 * @publicApi
 */
export class McpStdioConnection {
  /**
   * Settles once the input has ended (or {@link close} was called), every call in flight has been
   * answered and the output has taken the last line.
   */
  readonly closed: Promise<void>;

  private readonly logger: Logger;
  private readonly reader: StdioLineReader;
  private readonly inFlight = new Set<AbortController>();
  private started = false;
  private outputBroken = false;
  private settled = false;
  private resolveClosed!: () => void;
  private readonly backlog: StdioBacklog;
  /** Decided by the first JSON-RPC message, for the whole connection (and whether the module serves it). */
  private era: McpProtocolEra | undefined;
  private served = true;
  private legacySession: LegacyStdioSession | undefined;
  /** The class of error the connection failed with (`error.type` of the session), if it did. */
  private failedWith: string | undefined;

  /** @internal */
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly options: McpStdioConnectionOptions,
  ) {
    this.logger = options.logger ?? new Logger('McpStdio');
    this.reader = new StdioLineReader(options.input, options.maxLineBytes, {
      line: (line) => this.handle(line),
      ended: () => this.finishIfIdle(),
      failed: (error) => {
        this.logger.error(`stdin failed: ${error.message}`);
        this.failedWith ??= error.code ?? 'transport_error';
      },
    });
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.backlog = new StdioBacklog(
      options.output,
      options.maxBacklogBytes ?? LIMIT_DEFAULTS.maxStreamBacklogBytes,
      (message) => this.write(message),
    );
  }

  /** How many requests are being answered right now. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Starts reading the input. Called by `McpStdioTransport.listen`. */
  start(): this {
    if (this.started) return this;
    this.started = true;
    this.reader.start();
    const { output } = this.options;
    output.on('error', this.onOutputError);
    output.on('drain', this.onDrain);
    return this;
  }

  /**
   * Stops reading, aborts the signal of every call in flight (they still get their response, if
   * they produce one) and settles {@link closed} once they are done.
   */
  close(reason = 'The MCP server is shutting down'): Promise<void> {
    this.reader.stop();
    for (const abort of this.inFlight) abort.abort(new McpCallAbortedError(reason, 'shutdown'));
    this.finishIfIdle();
    return this.closed;
  }

  private readonly onOutputError = (error: NodeJS.ErrnoException): void => {
    if (this.outputBroken) return;
    this.failedWith ??= error.code ?? 'transport_error';
    // The client is gone (EPIPE and the like): nobody can read answers any more.
    this.outputBroken = true;
    this.logger.error(`stdout failed, closing the stdio session: ${error.message}`);
    void this.close('The client closed the connection');
  };

  private readonly onDrain = (): void => this.reader.resume();

  private handle(line: StdioLine): void {
    if (line.kind === 'refused') {
      this.refuse(line.response);
      return;
    }
    const { message } = line;
    if (this.era === undefined && isJsonObject(message) && message['jsonrpc'] === '2.0') {
      const route = this.options.legacy?.eras.classify(message) ?? { era: 'modern', served: true };
      this.era = route.era;
      this.served = route.served;
      if (this.era === 'legacy')
        this.legacySession = new LegacyStdioSession(
          this.options.legacy!,
          route.served,
          (m) => this.backlog.unsolicited(m),
          this.logger,
          (response, method) => this.recordRefusal(response, method),
        );
    }
    if (this.legacySession && isJsonObject(message)) {
      this.track((signal, abort) => this.answerLegacy(this.legacySession!, message, signal, abort));
      return;
    }
    if (!this.served && isJsonObject(message)) {
      // A 2026-07-28 connection to a module that serves 2025-era clients only.
      if (typeof message['method'] === 'string' && 'id' in message) {
        this.refuse(failure(idOf(message), this.options.legacy!.eras.modernRequest(message)).response);
      }
      return;
    }
    if (isResponse(message)) {
      // This server sends no requests, so there is nothing to match; answering would be noise.
      this.logger.warn(
        `Ignored a JSON-RPC response (id ${logText(JSON.stringify(message['id']))}): this server sends no requests`,
      );
      return;
    }
    this.track((signal, abort) => this.answer(message, signal, abort));
  }

  /** Answers a message refused before dispatch, and records it (one audit event, one span). */
  private refuse(response: JsonRpcResponse): void {
    this.recordRefusal(response);
    this.write(response);
  }

  private recordRefusal(response: JsonRpcResponse, method?: string): void {
    this.dispatcher.refused({
      transport: STDIO,
      era: this.era ?? 'modern',
      response,
      ...(method !== undefined && { method }),
    });
  }

  /** Runs one message's answer as a call in flight: counted, abortable, awaited on close. */
  private track(run: (signal: AbortSignal, abort: AbortController) => Promise<void>): void {
    const abort = new AbortController();
    this.inFlight.add(abort);
    void run(abort.signal, abort).finally(() => {
      this.inFlight.delete(abort);
      this.finishIfIdle();
    });
  }

  private async answerLegacy(
    session: LegacyStdioSession,
    message: Record<string, unknown>,
    signal: AbortSignal,
    abort: AbortController,
  ): Promise<void> {
    let answered = false;
    const notify = (m: JsonRpcNotification | JsonRpcRequest) => (answered ? undefined : this.backlog.forCall(m, abort));
    let response: JsonRpcResponse | undefined;
    try {
      response = await session.handle(message, signal, notify);
    } catch (error) {
      response = this.unexpected(idOf(message), error);
    }
    answered = true;
    if (response) this.write(response, idOf(message));
  }

  private async answer(message: unknown, signal: AbortSignal, abort: AbortController): Promise<void> {
    let answered = false;
    const inbound = new McpInbound({
      transport: STDIO,
      signal: () => signal,
      // A notification after the response would be orphaned: the client has moved on.
      notify: (notification) => (answered ? undefined : this.backlog.forCall(notification, abort)),
    });
    let response: JsonRpcResponse | undefined;
    try {
      response = (await this.dispatcher.dispatch(message, inbound))?.response;
    } catch (error) {
      response = this.unexpected(idOf(message), error);
    }
    answered = true;
    if (response) this.write(response, idOf(message));
  }

  private unexpected(id: JsonRpcId | null, error: unknown): JsonRpcResponse {
    if (error instanceof McpHttpChallenge) {
      // An HTTP-only refusal (authentication, scopes): stdio has no status or headers to carry it.
      return failure(id, McpError.invalidRequest(`Request refused: ${error.message}`)).response;
    }
    this.logger.error(
      'Unexpected failure answering a stdio message',
      error instanceof Error ? logStack(error) : logText(error),
    );
    return failure(id, McpError.internal()).response;
  }

  /** One message, one line, one write call: lines from concurrent calls never interleave. */
  private write(message: StdioOutgoingMessage, responseId?: JsonRpcId | null): void {
    const { output } = this.options;
    if (this.outputBroken || output.destroyed || output.writableEnded) return;
    let line: string;
    try {
      line = `${toWireJson(message)}\n`;
    } catch (error) {
      this.logger.error(
        'Could not serialize an outgoing message',
        error instanceof Error ? error.stack : String(error),
      );
      if (responseId === undefined) return;
      line = `${JSON.stringify(failure(responseId, McpError.internal()).response)}\n`;
    }
    // Backpressure: stop taking requests until the client reads what we wrote.
    if (!output.write(line)) this.reader.pause();
  }

  private finishIfIdle(): void {
    if (this.reader.reading || this.inFlight.size > 0 || this.settled) return;
    this.settled = true;
    this.legacySession?.close(this.failedWith);
    const { output } = this.options;
    const done = (): void => {
      output.off('drain', this.onDrain);
      output.off('drain', done);
      output.off('close', done);
      this.resolveClosed();
    };
    if (!this.outputBroken && output.writableNeedDrain && !output.destroyed) {
      output.once('drain', done);
      output.once('close', done);
    } else {
      done();
    }
  }
}

function isResponse(message: unknown): message is Record<string, unknown> {
  return (
    isJsonObject(message) && !('method' in message) && 'id' in message && ('result' in message || 'error' in message)
  );
}

function idOf(message: unknown): JsonRpcId | null {
  return isJsonObject(message) && isJsonRpcId(message['id']) ? message['id'] : null;
}
