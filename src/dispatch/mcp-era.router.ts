import { Inject, Injectable, Logger } from '@nestjs/common';
import { isJsonObject } from '../protocol/is-json-object.js';
import { META_PROTOCOL_VERSION } from '../protocol/meta-keys.js';
import { classifyEra, type McpProtocolEra } from '../protocol/protocol-era.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import { logText } from '../telemetry/log-text.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';

/** Client names already warned about; bounded so a stream of made-up names cannot grow it. */
const MAX_WARNED_CLIENTS = 1000;

/** Which era a message belongs to, and whether this server serves that era (`eras` option). */
export interface EraRoute {
  readonly era: McpProtocolEra;
  readonly served: boolean;
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

  /** The era of `message` (given the request's `MCP-Protocol-Version` header, if any) and whether it is served. */
  route(message: unknown, protocolVersionHeader?: string): EraRoute {
    const era = classifyEra(message, protocolVersionHeader);
    return { era, served: this.options.eras[era] };
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
