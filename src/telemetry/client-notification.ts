import { performance } from 'node:perf_hooks';
import { isJsonObject } from '../protocol/is-json-object.js';
import type { McpTransportInfo } from '../protocol/mcp-exchange.js';
import { META_PROTOCOL_VERSION } from '../protocol/meta-keys.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import type { McpRequestObserver } from './mcp-request-observer.js';
import type { McpRequestTrace } from './mcp-request-trace.js';

const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

/** What observers' `notified` hook is told of a client notification (`session`: its 2025-era session). */
export function clientNotification(
  era: McpRequestTrace['era'],
  transport: McpTransportInfo['kind'],
  method: string,
  params: unknown,
  session?: { readonly protocolVersion: string; readonly id: string },
): McpRequestObserver.Notification {
  const bag = isJsonObject(params) ? params : NO_PARAMS;
  const protocolVersion = session ? session.protocolVersion : claimedVersion(bag);
  return {
    time: Date.now(),
    startedAt: performance.now(),
    transport,
    era,
    method,
    params: bag,
    ...(protocolVersion !== undefined && { protocolVersion }),
    ...(session && { sessionId: session.id }),
  };
}

/** The revision a 2026-07-28 message claims in its `_meta`, when this server supports it (else none: it is client text). */
function claimedVersion(params: Readonly<Record<string, unknown>>): string | undefined {
  const meta = params['_meta'];
  const claimed = isJsonObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  return typeof claimed === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(claimed) ? claimed : undefined;
}
