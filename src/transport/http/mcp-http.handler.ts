import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { McpDispatcher, failure, parseErrorOutcome } from '../../dispatch/mcp.dispatcher.js';
import type { McpInbound } from '../../dispatch/mcp-inbound.js';
import { MCP_OPTIONS } from '../../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../../mcp.options.js';
import { INTEGRATION_HTTP_AUTHENTICATOR } from '../../mcp.tokens.js';
import { McpError } from '../../protocol/mcp.error.js';
import { McpHttpChallenge } from '../../protocol/mcp-http-challenge.js';
import { McpHttpAuthenticator } from './mcp-http-authenticator.js';
import { verifyParamHeaders, verifyRequestHeaders } from './mcp-headers.js';
import { OriginPolicy } from './origin-policy.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { ResponseWriter } from './response-writer.js';

const ALLOW_POST = { allow: 'POST' } as const;

/**
 * Streamable HTTP (2026-07-28) on plain Node request/response objects, so Express and Fastify run
 * the very same code: POST only, Origin/Host checks, Accept and Content-Type checks, our own body
 * limit and JSON parsing, authentication, dispatch, then a JSON body or a per-request SSE stream.
 */
@Injectable()
export class McpHttpHandler {
  private readonly logger = new Logger('McpHttp');
  private readonly originPolicy: OriginPolicy;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly dispatcher: McpDispatcher,
    @Optional() @Inject(INTEGRATION_HTTP_AUTHENTICATOR) private readonly authenticator?: McpHttpAuthenticator,
  ) {
    this.originPolicy = new OriginPolicy(options.allowedHosts, options.allowedOrigins);
  }

  get maxBodyBytes(): number {
    return this.options.maxBodyBytes;
  }

  /** Any method but POST: the endpoint has no GET stream and no sessions to DELETE. */
  methodNotAllowed(res: ServerResponse): void {
    reject(new ResponseWriter(res), 405, 'Method not allowed: the MCP endpoint accepts POST only', ALLOW_POST);
  }

  /** A body the framework refused before we saw it (e.g. over the limit). */
  bodyRejected(res: ServerResponse, error: unknown): void {
    this.writeBodyError(new ResponseWriter(res), error);
  }

  /**
   * Handles one POST. `body` is what the framework already read (a Buffer, or a parsed value when
   * a JSON parser ran first); undefined means the stream is still unread and we read it.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const writer = new ResponseWriter(res);
    try {
      const headers = req.headers;
      if (!this.originPolicy.originAllowed(headers.origin)) {
        return reject(writer, 403, 'Forbidden: Origin not allowed');
      }
      if (!this.originPolicy.hostAllowed(headers.host)) {
        return reject(writer, 403, 'Forbidden: Host not allowed');
      }
      if (!acceptsJson(headers.accept)) {
        return reject(writer, 406, 'Not acceptable: Accept must allow application/json and text/event-stream');
      }
      if (!isJsonContentType(headers['content-type'])) {
        return reject(writer, 415, 'Unsupported media type: Content-Type must be application/json');
      }
      if (this.authenticator) await this.authenticator.authenticate(req, res);
      if (writer.closed) return;

      let message: unknown;
      try {
        message = await this.parse(req, body);
      } catch (error) {
        return this.writeBodyError(writer, error);
      }
      const inbound: McpInbound = {
        transport: { kind: 'http', request: req },
        get signal() {
          return disconnectSignal(res);
        },
        notify: (notification) => writer.notify(notification),
        verifyHeaders: (method, params, version) => verifyRequestHeaders(headers, method, params, version),
        verifyToolHeaders: (headerParams, args) => verifyParamHeaders(headers, headerParams, args),
      };
      const outcome = await this.dispatcher.dispatch(message, inbound);
      if (outcome) writer.respond(outcome.status, outcome.response);
      else writer.plain(202, {});
    } catch (error) {
      if (error instanceof McpHttpChallenge) return writer.plain(error.status, error.headers, error.body);
      this.logger.error('Unexpected failure in the MCP HTTP endpoint', error instanceof Error ? error.stack : String(error));
      writer.respond(500, failure(null, McpError.internal()).response);
    }
  }

  private async parse(req: IncomingMessage, body: unknown): Promise<unknown> {
    if (body === undefined && !req.readableEnded) body = await readBody(req, this.options.maxBodyBytes);
    if (Buffer.isBuffer(body)) {
      if (body.length > this.options.maxBodyBytes) throw new BodyTooLargeError(this.options.maxBodyBytes);
      return JSON.parse(body.toString('utf8'));
    }
    if (typeof body === 'string') return JSON.parse(body);
    if (body === undefined) throw new SyntaxError('Empty body');
    return body;
  }

  private writeBodyError(writer: ResponseWriter, error: unknown): void {
    if (error instanceof BodyTooLargeError || (error as { statusCode?: number })?.statusCode === 413) {
      return reject(writer, 413, `Request body too large: the limit is ${this.options.maxBodyBytes} bytes`);
    }
    if (error instanceof SyntaxError || (error as { statusCode?: number })?.statusCode === 400) {
      const outcome = parseErrorOutcome();
      return writer.respond(outcome.status, outcome.response);
    }
    if ((error as { statusCode?: number })?.statusCode === 415) {
      return reject(writer, 415, 'Unsupported media type: Content-Type must be application/json');
    }
    throw error;
  }
}

const signals = new WeakMap<ServerResponse, AbortSignal>();

/**
 * Aborted when the client goes away before the answer was written. Made on first use: most calls
 * finish without anyone asking, and an AbortController plus a listener per request is not free.
 */
function disconnectSignal(res: ServerResponse): AbortSignal {
  let signal = signals.get(res);
  if (!signal) {
    const abort = new AbortController();
    signal = abort.signal;
    signals.set(res, signal);
    const onClose = () => {
      if (!res.writableFinished) abort.abort(new Error('The client closed the connection'));
    };
    if (res.destroyed) onClose();
    else res.once('close', onClose);
  }
  return signal;
}

/** Answers a request refused before dispatch with a JSON-RPC error body (-32600) and an HTTP status. */
function reject(writer: ResponseWriter, status: number, message: string, headers?: Readonly<Record<string, string>>): void {
  writer.respond(status, failure(null, McpError.invalidRequest(message)).response, headers);
}

/** Accept must allow JSON; an absent header accepts anything. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') return true;
  return accept.includes('application/json') || accept.includes('*/*') || accept.includes('application/*');
}

function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === 'application/json';
}
