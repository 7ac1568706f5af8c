import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { McpDispatcher } from '../../dispatch/mcp-dispatcher.js';
import { failure } from '../../protocol/rpc-outcome.js';
import { McpError } from '../../protocol/mcp.error.js';
import { McpHttpChallenge } from '../../protocol/mcp-http-challenge.js';
import { MCP_HTTP_AUTHENTICATOR, type McpHttpAuthenticator } from './mcp-http-authenticator.js';
import { OriginPolicy } from './origin-policy.js';
import { readBody } from './read-body.js';
import { answerBodyError, NULL_BODY, parseBody } from './http-body.js';
import { httpInbound } from './http-inbound.js';
import { type ClientAddressSource, HttpRequestTransport } from './http-request-transport.js';
import { LegacyHttpEndpoint } from './legacy-http-endpoint.js';
import { type EraLegs, type EraRefusal, McpEraRouter } from '../../dispatch/mcp-era-router.js';
import type { McpProtocolEra } from '../../protocol/protocol-era.js';
import { isJsonObject } from '../../protocol/is-json-object.js';
import { type JsonRpcId, requestIdOf } from '../../protocol/json-rpc.js';
import { type RefusalListener, ResponseWriter } from './response-writer.js';
import { SseKeepAlive } from './sse-keep-alive.js';
import { logStack } from '../../telemetry/log-stack.js';
import { logText } from '../../protocol/log-text.js';
import { McpTelemetry } from '../../telemetry/mcp-telemetry.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../../core/mcp-server.options.js';
import { MCP_HTTP_OPTIONS, type ResolvedMcpHttpOptions } from './mcp-http.options.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../../core/mcp-limits.options.js';

const ALLOW_POST = { allow: 'POST' } as const;
const ALLOW_ALL = { allow: 'GET, POST, DELETE' } as const;

/**
 * Streamable HTTP (2026-07-28) on plain Node request/response objects, so Express and Fastify run
 * the very same code: POST only, Origin/Host and Content-Type checks, authentication, our own body
 * limit and JSON parsing, the Accept check (after parsing, so its refusal carries the request's id),
 * dispatch, then a JSON body or a per-request SSE stream. Each entry also gets the adapter's own
 * request (Express's `req`, Fastify's request), whose `ip` is the client's address as the app's
 * proxy setting has it; the request's transport, made once, carries it to every per-caller bound.
 */
@Injectable()
export class McpHttpHandler implements EraLegs<ResponseWriter> {
  private readonly logger = new Logger('McpHttp');
  private readonly originPolicy: OriginPolicy;
  private readonly keepAlive: SseKeepAlive;

  constructor(
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
    @Inject(MCP_HTTP_OPTIONS) http: ResolvedMcpHttpOptions,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly dispatcher: McpDispatcher,
    private readonly legacyEndpoint: LegacyHttpEndpoint,
    private readonly eras: McpEraRouter,
    @Inject(MCP_HTTP_AUTHENTICATOR) private readonly authenticator: McpHttpAuthenticator | null,
  ) {
    this.originPolicy = new OriginPolicy(http.allowedHosts, http.allowedOrigins);
    this.keepAlive = new SseKeepAlive(http.sseKeepAliveMs);
  }

  get maxBodyBytes(): number {
    return this.limits.maxBodyBytes;
  }

  /** Any method but POST, GET and DELETE; GET and DELETE too when the 2025 era is not served. */
  methodNotAllowed(req: IncomingMessage, res: ServerResponse, adapterRequest: ClientAddressSource): void {
    this.refuseMethod(this.writerFor(req, res, adapterRequest));
  }

  private refuseMethod(writer: ResponseWriter): void {
    const allow = this.options.eras.legacy ? ALLOW_ALL : ALLOW_POST;
    writer.refuse(405, `Method not allowed: the MCP endpoint accepts ${allow.allow}`, allow);
  }

  /**
   * GET (a 2025-era session's stream) or DELETE (ending that session). HEAD, which Express routes
   * to GET handlers, is refused like any other method the endpoint does not serve.
   */
  async handleSession(req: IncomingMessage, res: ServerResponse, adapterRequest: ClientAddressSource): Promise<void> {
    const writer = this.writerFor(req, res, adapterRequest);
    if (!this.options.eras.legacy || (req.method !== 'GET' && req.method !== 'DELETE'))
      return this.refuseMethod(writer);
    writer.era = 'legacy';
    try {
      if (!this.admitted(req, writer)) return;
      if (this.authenticator) await this.authenticator.authenticate(req, res);
      if (writer.closed) return;
      if (req.method === 'DELETE') await this.legacyEndpoint.delete(writer);
      else await this.legacyEndpoint.get(writer);
    } catch (error) {
      this.unexpected(writer, error);
    }
  }

  /** A body the framework refused before we saw it (e.g. over the limit). */
  bodyRejected(req: IncomingMessage, res: ServerResponse, adapterRequest: ClientAddressSource, error: unknown): void {
    answerBodyError(this.writerFor(req, res, adapterRequest), error, this.limits.maxBodyBytes, this.logger);
  }

  /**
   * A failure of a body parser that ran before the endpoint (Express with Nest's parsers). A strict
   * JSON parser refuses valid JSON that is not an object or array: that is a JSON-RPC Invalid
   * Request, not a parse error, so such a body is answered as the message it is.
   */
  async parserFailed(
    req: IncomingMessage,
    res: ServerResponse,
    adapterRequest: ClientAddressSource,
    error: unknown,
  ): Promise<void> {
    const { type, body } = (error ?? {}) as { type?: unknown; body?: unknown };
    if (type === 'entity.parse.failed' && typeof body === 'string') {
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return this.bodyRejected(req, res, adapterRequest, error);
      }
      return this.handle(req, res, adapterRequest, value === null ? NULL_BODY : value);
    }
    this.bodyRejected(req, res, adapterRequest, error);
  }

  /**
   * Handles one POST. `body` is what the framework already read (a Buffer, or a parsed value when
   * a JSON parser ran first); undefined means the stream is still unread and we read it. The era
   * router hands the message to the leg of its era ({@link modern}, {@link legacy}) or has it
   * refused; a failure of the leg is answered with the request's id.
   */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    adapterRequest: ClientAddressSource,
    body?: unknown,
  ): Promise<void> {
    const writer = this.writerFor(req, res, adapterRequest);
    let message: unknown;
    try {
      if (!this.admitted(req, writer)) return;
      const { headers } = req;
      if (!isJsonContentType(headers['content-type'])) {
        return writer.refuse(415, 'Unsupported media type: Content-Type must be application/json');
      }
      if (this.authenticator) await this.authenticator.authenticate(req, res);
      if (writer.closed) return;
      try {
        if (body === undefined && !req.readableEnded) body = await readBody(req, this.limits.maxBodyBytes);
        if (writer.closed) return;
        message = parseBody(req, body, this.limits.maxBodyBytes);
      } catch (error) {
        return answerBodyError(writer, error, this.limits.maxBodyBytes, this.logger);
      }
      // Checked once the body is read, so that the refusal carries the request's id.
      if (!acceptsJson(headers.accept)) {
        const error = McpError.invalidRequest(
          'Not acceptable: Accept must allow application/json and text/event-stream',
        );
        return writer.refuseWith(406, failure(requestIdOf(message), error).response);
      }
      const version = headers['mcp-protocol-version'];
      if (isJsonObject(message) && typeof message['method'] === 'string') writer.method = message['method'];
      await this.eras.route(message, typeof version === 'string' ? version : undefined, this, writer);
    } catch (error) {
      this.unexpected(writer, error, message === undefined ? null : requestIdOf(message));
    }
  }

  /** The 2026-07-28 leg: the dispatcher's outcome written as JSON (or the stream it opened), 202 for a notification. */
  async modern(message: unknown, writer: ResponseWriter): Promise<void> {
    const outcome = await this.dispatcher.dispatch(message, httpInbound(writer));
    if (outcome) writer.respond(outcome.status, outcome.response, outcome.headers);
    else writer.plain(202, {});
  }

  /** The 2025-era leg: the session's endpoint. */
  legacy(message: unknown, writer: ResponseWriter): Promise<void> {
    return this.legacyEndpoint.post(message, writer);
  }

  /** A message of an era this endpoint does not serve: its refusal, or 202 for a 2025-era notification. */
  refuse(refusal: EraRefusal | undefined, era: McpProtocolEra, writer: ResponseWriter): void {
    writer.era = era;
    if (!refusal) return writer.plain(202, {});
    writer.refuseWith(refusal.error.httpStatus, failure(refusal.id, refusal.error).response);
  }

  /** Origin and Host checks (DNS-rebinding protection) of every method; false once refused. */
  private admitted(req: IncomingMessage, writer: ResponseWriter): boolean {
    if (!this.originPolicy.originAllowed(req.headers.origin)) {
      writer.refuse(403, 'Forbidden: Origin not allowed');
      return false;
    }
    if (!this.originPolicy.hostAllowed(req.headers.host)) {
      writer.refuse(403, 'Forbidden: Host not allowed');
      return false;
    }
    return true;
  }

  /** A failure nobody answered yet; `id` is the request's, when the body was a request. */
  private unexpected(writer: ResponseWriter, error: unknown, id: JsonRpcId | null = null): void {
    if (error instanceof McpHttpChallenge) return writer.plain(error.status, error.headers, error.body);
    // Recorded already when it escaped an observed request; else it is a refusal before dispatch.
    const answer = McpTelemetry.wasObserved(error) ? writer.respond.bind(writer) : writer.refuseWith.bind(writer);
    // A shared store that could not answer (e.g. McpUnavailableException): its status and headers.
    if (error instanceof McpError) return answer(error.httpStatus, failure(id, error).response, error.httpHeaders);
    this.logger.error(
      'Unexpected failure in the MCP HTTP endpoint',
      error instanceof Error ? logStack(error) : logText(error),
    );
    answer(500, failure(id, McpError.internal()).response);
  }

  /**
   * The request's writer, with the request's transport (made here, once per request); it reports
   * its refusals (one audit event and span each).
   */
  private writerFor(req: IncomingMessage, res: ServerResponse, adapterRequest: ClientAddressSource): ResponseWriter {
    const transport = new HttpRequestTransport(req, adapterRequest);
    return new ResponseWriter(res, transport, this.onRefused, this.limits.maxStreamBacklogBytes, this.keepAlive);
  }

  /** One listener for every writer: nothing is allocated per request for refusals that never come. */
  private readonly onRefused: RefusalListener = (httpStatus, response, writer) => {
    const method = writer.method;
    this.dispatcher.refused({
      transport: writer.transport,
      era: writer.era,
      response,
      httpStatus,
      ...(method !== undefined && { method }),
    });
  };
}

/** Accept must allow JSON; an absent header accepts anything. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') return true;
  return accept.includes('application/json') || accept.includes('*/*') || accept.includes('application/*');
}

function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === 'application/json') return true;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === 'application/json';
}
