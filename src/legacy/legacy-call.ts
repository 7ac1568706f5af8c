import type { PipelineRequest } from '../dispatch/mcp-request-pipeline.js';
import { RequestExchange } from '../calls/request-exchange.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import type { JsonRpcId } from '../protocol/json-rpc.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { META_PROGRESS_TOKEN } from '../protocol/meta-keys.js';
import type { CallCancellation } from './call-cancellation.js';
import type { LegacyChannel, LegacySession } from './legacy-channel.js';

/** One 2025-era request: its id, method and params, already checked for shape. */
export interface LegacyRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A request of an open 2025-era session on its way through the pipeline: the session, its channel, the call's cancellation. */
export interface LegacyCall extends PipelineRequest {
  readonly era: 'legacy';
  readonly legacy: LegacySession;
  readonly channel: LegacyChannel;
  readonly cancel: CallCancellation;
}

/** The exchange of one round of a legacy call (`params`: the round's): the session's claims stand in for the `_meta` envelope. */
export function legacyExchange(call: LegacyCall, params: Readonly<Record<string, unknown>>): McpExchange {
  const meta = params['_meta'];
  const progressToken = isJsonObject(meta) ? meta[META_PROGRESS_TOKEN] : undefined;
  const { claims, state } = call.legacy;
  return new RequestExchange(
    {
      id: call.id,
      method: call.method,
      params,
      protocolVersion: claims.protocolVersion,
      clientCapabilities: claims.clientCapabilities,
      clientInfo: claims.clientInfo,
      logLevel: state.logLevel ?? 'debug',
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
    },
    call.inbound,
  );
}
