import { Inject, Injectable, Logger } from '@nestjs/common';
import { isJsonObject } from '../protocol/is-json-object.js';
import { type JsonRpcId, requestIdOf } from '../protocol/json-rpc.js';
import { META_PROTOCOL_VERSION } from '../protocol/meta-keys.js';
import { classifyEra, type McpProtocolEra } from '../protocol/protocol-era.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import { logText } from '../protocol/log-text.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

/** Client names already warned about; bounded so a stream of made-up names cannot grow it. */
const MAX_WARNED_CLIENTS = 1000;

/** Which era a message belongs to, and whether this server serves that era (`eras` option). */
export interface EraRoute {
  readonly era: McpProtocolEra;
  readonly served: boolean;
}

/** The error a message of an era the endpoint does not serve is answered with, and the id it answers. */
export interface EraRefusal {
  readonly id: JsonRpcId | null;
  readonly error: McpError;
}

/**
 * A transport's answer to a message, per era; {@link McpEraRouter.route} calls the one the message
 * needs. `C` is the transport's handle on the message's answer (the HTTP response writer).
 */
export interface EraLegs<C> {
  /** A 2026-07-28 message (and anything that is not one JSON-RPC object: the dispatcher refuses it). */
  modern(message: unknown, context: C): Promise<void>;
  /** A 2025-era message, or a batch whose first message is one, on an endpoint that serves that era. */
  legacy(message: unknown, context: C): Promise<void>;
  /** A message of an era the endpoint does not serve: `refusal` to answer, or undefined (a notification: none). */
  refuse(refusal: EraRefusal | undefined, era: McpProtocolEra, context: C): void;
}

/**
 * The era router both transports ask about each message (stdio about its first): which leg answers
 * it — the 2026-07-28 dispatcher or the 2025-era adapter — per {@link classifyEra} and the `eras`
 * option. What an endpoint that does not serve an era answers to it is decided here too: `-32022`
 * UnsupportedProtocolVersion (HTTP 400) naming the versions it does serve, so a client can tell at
 * once what went wrong. A refused 2025-era client is logged once per client name, with the setting
 * that would serve it.
 */
@Injectable()
export class McpEraRouter {
  private readonly logger = new Logger('McpEras');
  private readonly warned = new Set<string>();

  constructor(@Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions) {}

  /**
   * Hands `message` to the leg of its era (given the request's `MCP-Protocol-Version` header, if
   * any), or has it refused when the endpoint does not serve that era. Synchronous: it decides and
   * returns the leg's promise, which the transport awaits.
   */
  route<C>(
    message: unknown,
    protocolVersionHeader: string | undefined,
    legs: EraLegs<C>,
    context: C,
  ): Promise<void> | void {
    const era = this.eraOf(message, protocolVersionHeader);
    if (this.options.eras[era] || !isJsonObject(message)) {
      return era === 'legacy' ? legs.legacy(message, context) : legs.modern(message, context);
    }
    return legs.refuse(this.refusalOf(message, era), era, context);
  }

  /** The era of `message` (stdio asks about a connection's first message) and whether it is served. */
  classify(message: unknown, protocolVersionHeader?: string): EraRoute {
    const era = classifyEra(message, protocolVersionHeader);
    return { era, served: this.options.eras[era] };
  }

  /** A batch is 2025-era (and refused as one, 2025-03-26 allowed them) when its first message is and that era is served. */
  private eraOf(message: unknown, protocolVersionHeader: string | undefined): McpProtocolEra {
    if (!Array.isArray(message)) return classifyEra(message, protocolVersionHeader);
    const first = message.length > 0 ? classifyEra(message[0], protocolVersionHeader) : 'modern';
    return first === 'legacy' && this.options.eras.legacy ? 'legacy' : 'modern';
  }

  /** What a message of an unserved era gets: a posted response or a request -32022 or -32600; a 2025-era notification nothing. */
  private refusalOf(message: Record<string, unknown>, era: McpProtocolEra): EraRefusal | undefined {
    if (era === 'modern') return { id: requestIdOf(message), error: this.modernRequest(message) };
    const method = message['method'];
    if (typeof method !== 'string') {
      return {
        id: null,
        error: McpError.invalidRequest('Bad Request: JSON-RPC responses cannot be posted to this endpoint'),
      };
    }
    if (!('id' in message)) return undefined;
    return { id: requestIdOf(message), error: this.legacyRequest(method, message['params']) };
  }

  /** The error for a 2025-era request (initialize or claim-less) on a modern-only endpoint. */
  legacyRequest(method: string, params: unknown): McpError {
    const requested =
      isJsonObject(params) && typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : undefined;
    if (method === 'initialize') this.warnOnce(params, requested);
    return new McpError(
      McpErrorCode.UnsupportedProtocolVersion,
      'Unsupported protocol version: this server serves MCP 2026-07-28 only; send the per-request _meta envelope instead of initialize',
      { supported: SUPPORTED_PROTOCOL_VERSIONS, ...(requested !== undefined && { requested }) },
      400,
    );
  }

  /** The error for a 2026-07-28 request (`message`) on a legacy-only endpoint. */
  modernRequest(message: Record<string, unknown>): McpError {
    const meta = isJsonObject(message['params']) ? message['params']['_meta'] : undefined;
    const requested = isJsonObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
    return new McpError(
      McpErrorCode.UnsupportedProtocolVersion,
      'Unsupported protocol version: this server serves 2025-era clients only; open a session with initialize',
      { supported: LEGACY_PROTOCOL_VERSIONS, ...(typeof requested === 'string' && { requested }) },
      400,
    );
  }

  private warnOnce(params: unknown, requested: string | undefined): void {
    const info = isJsonObject(params) && isJsonObject(params['clientInfo']) ? params['clientInfo'] : {};
    const name = typeof info['name'] === 'string' ? info['name'].slice(0, 100) : '(unnamed client)';
    if (this.warned.has(name) || this.warned.size >= MAX_WARNED_CLIENTS) return;
    this.warned.add(name);
    const version = typeof info['version'] === 'string' ? ` ${info['version'].slice(0, 40)}` : '';
    this.logger.warn(
      `Refused 2025-era client "${logText(name + version)}" (initialize, protocol ${logText(requested ?? 'unspecified')}): this endpoint serves ` +
        `eras [${this.eras()}]. To serve it, set McpModule.forRoot({ eras: ['modern', 'legacy'] }) (the default).`,
    );
  }

  private eras(): string {
    const { modern, legacy } = this.options.eras;
    return [modern && 'modern', legacy && 'legacy'].filter(Boolean).join(', ');
  }
}
