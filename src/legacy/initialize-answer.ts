import { isJsonObject } from '../protocol/is-json-object.js';
import { McpError } from '../protocol/mcp.error.js';
import { negotiateLegacyVersion } from '../protocol/protocol-version.js';
import type { ClientCapabilities, Implementation, ServerCapabilities } from '../protocol/wire-types.js';
import type { LegacySessionClaims } from './legacy-session.js';

/** The most a client's capabilities may take in a session id. */
const MAX_CAPABILITIES_CHARS = 4096;
const MAX_NAME_CHARS = 256;

/** What the server puts into its answer to `initialize`, and who is calling. */
export interface InitializeServer {
  readonly capabilities: () => ServerCapabilities;
  readonly serverInfo: Readonly<Implementation>;
  readonly instructions: string | undefined;
  /** Read only once the params passed their checks: a refused `initialize` resolves no principal. */
  readonly principal: () => string | null;
}

/** The result of `initialize`, and the claims the transport seals into the new session's id. */
export interface InitializeAnswer {
  readonly result: Record<string, unknown>;
  readonly claims: Omit<LegacySessionClaims, 'id' | 'issuedAt'>;
}

/**
 * Negotiates a 2025-era `initialize`: the protocol version (see {@link negotiateLegacyVersion}), and
 * the client's capabilities and info, which ride in the session id on every later request and so are
 * bounded here: capabilities too large are -32602 (params too deep were refused before, by the
 * request pipeline), client info is cut to its names.
 */
export function answerInitialize(
  params: Readonly<Record<string, unknown>>,
  server: InitializeServer,
): InitializeAnswer {
  const protocolVersion = negotiateLegacyVersion(params['protocolVersion']);
  const clientCapabilities = isJsonObject(params['capabilities']) ? (params['capabilities'] as ClientCapabilities) : {};
  if (JSON.stringify(clientCapabilities).length > MAX_CAPABILITIES_CHARS) {
    throw McpError.invalidParams(`params.capabilities is larger than ${MAX_CAPABILITIES_CHARS} characters of JSON`);
  }
  const clientInfo = implementationOf(params['clientInfo']);
  const { instructions } = server;
  return {
    result: {
      protocolVersion,
      capabilities: server.capabilities(),
      serverInfo: server.serverInfo,
      ...(instructions !== undefined && { instructions }),
    },
    claims: {
      protocolVersion,
      clientCapabilities,
      ...(clientInfo && { clientInfo }),
      principal: server.principal(),
    },
  };
}

/** name, version and title of the client, each bounded; nothing else of its Implementation is kept. */
function implementationOf(value: unknown): Implementation | undefined {
  if (!isJsonObject(value)) return undefined;
  const text = (key: string): string | undefined =>
    typeof value[key] === 'string' ? (value[key] as string).slice(0, MAX_NAME_CHARS) : undefined;
  const name = text('name');
  if (name === undefined) return undefined;
  const title = text('title');
  return { name, version: text('version') ?? '', ...(title !== undefined && { title }) };
}
