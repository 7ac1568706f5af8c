import { randomId } from '../core/random-pool.js';
import { Inject, Injectable } from '@nestjs/common';
import { AesGcmTokenSealer } from '../core/aes-gcm-token-sealer.js';
import { McpClock } from '../core/mcp-clock.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import type { ClientCapabilities, Implementation } from '../protocol/wire-types.js';
import type { LegacySessionClaims } from './legacy-session.js';
import { MCP_LEGACY_OPTIONS, type ResolvedMcpLegacyOptions } from './mcp-legacy.options.js';

/** Separates session ids from requestStates in the AAD: neither is ever accepted as the other. */
const SESSION_PURPOSE = 'legacy-session';
/** Session ids travel in a header: a generous bound that still refuses junk before decrypting. */
const MAX_SESSION_ID_CHARS = 16_384;
/** Recently opened ids kept decrypted: a session sends the same id with every request. */
const OPENED_CACHE_SIZE = 1024;

/** The sealed form, with short keys: it rides on every request of the session. */
interface SealedClaims {
  i: string;
  v: string;
  c: ClientCapabilities;
  n?: Implementation;
  p: string | null;
  t: number;
}

/**
 * Seals 2025-era session ids (`Mcp-Session-Id`) with the module's key ring: AES-256-GCM, so a
 * session id is visible ASCII, unforgeable and opaque, and any node sharing the secrets opens it.
 */
@Injectable()
export class LegacySessionCodec {
  private readonly opened = new Map<string, LegacySessionClaims>();

  constructor(
    private readonly sealer: AesGcmTokenSealer,
    private readonly clock: McpClock,
    @Inject(MCP_LEGACY_OPTIONS) private readonly legacy: ResolvedMcpLegacyOptions,
  ) {}

  /** Opens a new session, stamped now: its id is the one `initialize` minted, else a fresh random one. */
  issue(claims: Omit<LegacySessionClaims, 'id' | 'issuedAt'> & { readonly id?: string }): {
    token: string;
    claims: LegacySessionClaims;
  } {
    const full: LegacySessionClaims = {
      ...claims,
      id: claims.id ?? randomId(),
      issuedAt: this.clock.now(),
    };
    const sealed: SealedClaims = {
      i: full.id,
      v: full.protocolVersion,
      c: full.clientCapabilities,
      p: full.principal,
      t: full.issuedAt,
    };
    if (full.clientInfo) sealed.n = full.clientInfo;
    return { token: this.sealer.seal(Buffer.from(JSON.stringify(sealed), 'utf8'), SESSION_PURPOSE), claims: full };
  }

  /** The claims of a genuine, unexpired session id; undefined for anything else (the client re-initializes). */
  open(token: string): LegacySessionClaims | undefined {
    const cached = this.opened.get(token);
    if (cached) return this.clock.now() > cached.issuedAt + this.legacy.sessionTtlMs ? undefined : cached;
    const claims = this.decrypt(token);
    if (claims) {
      if (this.opened.size >= OPENED_CACHE_SIZE) this.opened.delete(this.opened.keys().next().value!);
      this.opened.set(token, claims);
    }
    return claims;
  }

  private decrypt(token: string): LegacySessionClaims | undefined {
    let sealed: unknown;
    try {
      sealed = JSON.parse(this.sealer.open(token, SESSION_PURPOSE, MAX_SESSION_ID_CHARS).toString('utf8'));
    } catch {
      return undefined;
    }
    if (!isSealedClaims(sealed)) return undefined;
    if (this.clock.now() > sealed.t + this.legacy.sessionTtlMs) return undefined;
    return {
      id: sealed.i,
      protocolVersion: sealed.v,
      clientCapabilities: sealed.c,
      ...(sealed.n && { clientInfo: sealed.n }),
      principal: sealed.p,
      issuedAt: sealed.t,
    };
  }
}

function isSealedClaims(value: unknown): value is SealedClaims {
  return (
    isJsonObject(value) &&
    typeof value['i'] === 'string' &&
    typeof value['v'] === 'string' &&
    LEGACY_PROTOCOL_VERSIONS.includes(value['v']) &&
    isJsonObject(value['c']) &&
    (value['n'] === undefined || isJsonObject(value['n'])) &&
    (value['p'] === null || typeof value['p'] === 'string') &&
    typeof value['t'] === 'number'
  );
}
