import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { JsonRpcId } from '../protocol/json-rpc.js';
import {
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROGRESS_TOKEN,
  META_PROTOCOL_VERSION,
} from '../protocol/meta-keys.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import type { ClientCapabilities, Implementation } from '../protocol/wire-types.js';
import { isLoggingLevel } from '../protocol/logging-level.js';
import type { McpInbound } from '../calls/mcp-inbound.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { RequestExchange } from '../calls/request-exchange.js';

/**
 * Reads the per-request `_meta` envelope (SEP-2575) into an immutable exchange. Missing protocol
 * version or client capabilities → -32602 with HTTP 400. The transport then cross-checks its
 * headers against the declared version (-32020) before an unsupported version is refused (-32022).
 */
export function createExchange(
  id: JsonRpcId,
  method: string,
  params: Record<string, unknown>,
  inbound: McpInbound,
): McpExchange {
  const meta = params['_meta'];
  if (!isJsonObject(meta)) {
    throw McpError.invalidParams(
      `params._meta is required and must carry "${META_PROTOCOL_VERSION}" and "${META_CLIENT_CAPABILITIES}"`,
      undefined,
      400,
    );
  }
  const protocolVersion = meta[META_PROTOCOL_VERSION];
  if (typeof protocolVersion !== 'string' || protocolVersion === '') {
    throw McpError.invalidParams(`params._meta["${META_PROTOCOL_VERSION}"] is required`, undefined, 400);
  }
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isJsonObject(clientCapabilities)) {
    throw McpError.invalidParams(
      `params._meta["${META_CLIENT_CAPABILITIES}"] is required (use {} for none)`,
      undefined,
      400,
    );
  }
  inbound.verifyHeaders?.(method, params, protocolVersion);
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    throw new McpError(
      McpErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version: ${protocolVersion}`,
      { supported: SUPPORTED_PROTOCOL_VERSIONS, requested: protocolVersion },
      400,
    );
  }
  const clientInfo = meta[META_CLIENT_INFO];
  const logLevel = meta[META_LOG_LEVEL];
  const progressToken = meta[META_PROGRESS_TOKEN];
  return new RequestExchange(
    {
      id,
      method,
      params,
      protocolVersion,
      clientCapabilities: clientCapabilities as ClientCapabilities,
      clientInfo: isJsonObject(clientInfo) ? (clientInfo as Implementation) : undefined,
      logLevel: isLoggingLevel(logLevel) ? logLevel : undefined,
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
    },
    inbound,
  );
}
