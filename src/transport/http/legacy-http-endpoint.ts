import { Injectable, Logger } from '@nestjs/common';
import { failure, readRequest } from '../../protocol/rpc-outcome.js';
import type { LegacySession } from '../../legacy/legacy-channel.js';
import { LegacySessionCodec } from '../../legacy/legacy-session-codec.js';
import { LegacySessions } from '../../legacy/legacy-sessions.js';
import { LegacyDispatcher } from '../../legacy/legacy-dispatcher.js';
import { McpError } from '../../protocol/mcp.error.js';
import { type JsonRpcId, requestIdOf } from '../../protocol/json-rpc.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../../protocol/protocol-version.js';
import { HttpLegacyChannel } from './legacy-http-channel.js';
import type { LegacyStream } from '../../legacy/legacy-session-state.js';
import { ResponseWriter } from './response-writer.js';
import { logText } from '../../protocol/log-text.js';
import { callerOf } from '../../task-store/task-caller.js';

const SESSION_HEADER = 'mcp-session-id';
const SESSION_NOT_FOUND = 'Session not found: it expired or was ended; send initialize to start a new one';

/**
 * Streamable HTTP as 2025-era clients speak it, on the same endpoint as the modern transport:
 * `initialize` answers with a sealed `Mcp-Session-Id`; later POSTs must carry it (missing → 400,
 * unknown, tampered, expired or ended → 404, opened by another principal → 403); posted
 * notifications and responses get 202; a request's answer is JSON, or an SSE stream when it sends
 * notifications or asks the client for input; GET opens the session's stream for list_changed and
 * resource updates; DELETE ends the session (on every node, with a shared `McpSessionBackplane`).
 */
@Injectable()
export class LegacyHttpEndpoint {
  private readonly logger = new Logger('McpLegacyHttp');

  constructor(
    private readonly legacy: LegacyDispatcher,
    private readonly codec: LegacySessionCodec,
    private readonly sessions: LegacySessions,
  ) {}

  /** One POSTed message (or batch) the era router sent here. */
  async post(posted: unknown, writer: ResponseWriter): Promise<void> {
    writer.era = 'legacy';
    if (Array.isArray(posted)) return refuseBatch(writer, posted);
    const message = posted as Record<string, unknown>;
    const method = message['method'];
    if (method === 'initialize') return this.initialize(writer, message);

    const session = await this.session(writer, requestIdOf(message));
    if (!session) return;
    if (method === undefined) {
      if (await this.sessions.respond(session.state, message)) return writer.plain(202, {});
      this.logger.debug(
        `Refused a response for unknown request ${logText(JSON.stringify(message['id']))} in a session`,
      );
      return writer.refuse(
        400,
        `No request with id ${JSON.stringify(message['id'])} is waiting for an answer in this session`,
      );
    }
    if (!('id' in message)) {
      this.legacy.notification(String(method), message['params'], session);
      return writer.plain(202, {});
    }
    const request = readRequest(message);
    if ('response' in request) return writer.refuseWith(request.status, request.response);

    const { transport, res } = writer;
    const channel = new HttpLegacyChannel(transport, res, writer, acceptsEventStream(transport.request.headers.accept));
    const response = await this.legacy.request(request, session, channel);
    if (response) writer.respond(200, response);
    else writer.endWithoutResponse();
  }

  /** GET: the session's standalone SSE stream. */
  async get(writer: ResponseWriter): Promise<void> {
    if (!acceptsEventStream(writer.transport.request.headers.accept, true)) {
      return writer.refuse(406, 'Not acceptable: the session stream needs Accept: text/event-stream');
    }
    const session = await this.session(writer);
    if (!session) return;
    // Gone while the session loaded: its 'close' has passed, so a stream attached now would never
    // be detached (the session busy for good, never evicted).
    if (writer.closed) return;
    // Kept alive by the endpoint's SseKeepAlive, as every stream the writer opens.
    const sse = writer.eventStream();
    sse.comment('stream open');
    const stream: LegacyStream = {
      // A client this far behind would never catch up: dropped, it reconnects with a new GET.
      send: (notification) => {
        if (!sse.send(notification)) sse.destroy();
      },
      // Replaced by a newer GET, or the session ended: what the client did not take yet is dropped.
      close: () => (sse.backlog > 0 ? sse.destroy() : writer.res.end()),
    };
    // One stream per session: a new GET replaces (and closes) the one before.
    session.state.attach(stream);
    writer.res.once('close', () => session.state.detach(stream));
  }

  /** DELETE: ends the session (on every node when a backplane is shared); its id is refused (404) from now on. */
  async delete(writer: ResponseWriter): Promise<void> {
    const session = await this.session(writer);
    if (!session) return;
    await this.sessions.end(session.claims.id, 'The client ended the session');
    writer.plain(200, {});
  }

  private async initialize(writer: ResponseWriter, message: Record<string, unknown>): Promise<void> {
    const request = readRequest(message);
    if ('response' in request) return writer.refuseWith(request.status, request.response);
    const { status, response, claims } = await this.legacy.initialize(request, writer.transport);
    // A refused initialize opens no session; a client error travels with 400.
    if (!claims) return writer.respond(status >= 500 ? status : 400, response);
    const { token } = this.codec.issue(claims);
    writer.respond(200, response, { [SESSION_HEADER]: token });
  }

  /**
   * The request's session, or undefined once the refusal was written; `id` is the id of the request
   * (null for GET, DELETE and posted responses), which every refusal carries. Its state counts
   * against the quota of its caller ({@link callerOf}: its principal, else its client address).
   */
  private async session(writer: ResponseWriter, id: JsonRpcId | null = null): Promise<LegacySession | undefined> {
    const { transport } = writer;
    const req = transport.request;
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !LEGACY_PROTOCOL_VERSIONS.includes(version.trim())) {
      refuse(
        writer,
        400,
        id,
        `Unsupported MCP-Protocol-Version: ${version.slice(0, 40)} (supported: ${LEGACY_PROTOCOL_VERSIONS.join(', ')})`,
      );
      return undefined;
    }
    const token = req.headers[SESSION_HEADER];
    if (typeof token !== 'string' || token === '') {
      refuse(writer, 400, id, 'Bad Request: Mcp-Session-Id header is required (send initialize first)');
      return undefined;
    }
    const claims = this.codec.open(token);
    if (!claims || this.sessions.isEnded(claims.id)) {
      refuse(writer, 404, id, SESSION_NOT_FOUND);
      return undefined;
    }
    if (this.legacy.principalOf(transport) !== claims.principal) {
      refuse(writer, 403, id, 'Forbidden: this session was opened by another principal');
      return undefined;
    }
    const state = await this.sessions.open(claims.id, callerOf(writer, claims.principal), claims.issuedAt);
    if (!state) {
      refuse(writer, 404, id, SESSION_NOT_FOUND);
      return undefined;
    }
    state.opened ??= { transport: 'http', protocolVersion: claims.protocolVersion, issuedAt: claims.issuedAt };
    return { claims, state };
  }
}

/** A refusal before dispatch (-32600) that carries the request's id. */
function refuse(writer: ResponseWriter, status: number, id: JsonRpcId | null, message: string): void {
  writer.refuseWith(status, failure(id, McpError.invalidRequest(message)).response);
}

/** Whether the client reads SSE here; on POST an absent Accept means JSON only. */
function acceptsEventStream(accept: string | undefined, absentMeansYes = false): boolean {
  if (accept === undefined || accept === '') return absentMeansYes;
  return accept.includes('text/event-stream') || accept.includes('*/*') || accept.includes('text/*');
}

/**
 * A batch from a 2025-era client (2025-03-26 allowed them): refused as a whole, with the id of its
 * first request, so the client can tell which call failed rather than none.
 */
function refuseBatch(writer: ResponseWriter, batch: unknown[]): void {
  const first = batch[0] as Record<string, unknown>;
  if (typeof first['method'] === 'string') writer.method = first['method'];
  const id = batch.map(requestIdOf).find((entry) => entry !== null) ?? null;
  writer.refuseWith(400, failure(id, McpError.invalidRequest('Batch requests are not supported')).response);
}
