import { Logger } from '@nestjs/common';
import { ExpiredRequestStateException } from './exceptions/expired-request-state.exception.js';
import { InvalidRequestStateException } from './exceptions/invalid-request-state.exception.js';
import { RequestStateTooLargeException } from './exceptions/request-state-too-large.exception.js';
import { AesGcmTokenSealer, SealedTokenError, type TokenSealerLogger } from '../core/aes-gcm-token-sealer.js';
import type { McpClock } from '../core/mcp-clock.js';
import { LIMIT_DEFAULTS } from '../core/mcp-limits.options.js';
import { MRTR_DEFAULTS } from './mcp-mrtr.options.js';
import { RequestStateCodec } from './request-state-codec.js';
import type { RequestStatePayload } from './request-state-payload.js';
import { deserializeRequestState, serializeRequestState } from './request-state-serializer.js';

/**
 * Settings of {@link AesGcmRequestStateCodec}: those of `McpModule.forRoot({ mrtr })`, and the
 * token bound, which the module takes from `limits.maxRequestStateChars`.
 */
export interface AesGcmRequestStateCodecOptions {
  /** Key ring: the first secret seals, every secret opens. Each at least 32 characters. */
  secrets?: readonly string[];
  /** Per-round time to live, ms. Default 300 000 (5 minutes). */
  ttlMs?: number;
  /** Absolute lifetime of a flow across all its rounds, ms. Default 3 600 000 (1 hour). */
  maxFlowMs?: number;
  /** Largest token accepted, in characters, checked before any decoding (`limits.maxRequestStateChars`). Default 65 536. */
  maxTokenChars?: number;
  /** @deprecated Use `maxTokenChars` (the bound counts characters). */
  maxTokenBytes?: number;
}

/** Where the random-key warning goes; Nest's `Logger` fits. */
export type RequestStateLogger = TokenSealerLogger;

/** requestState keeps the empty purpose: its AAD is the bare header, as in format v1. */
const REQUEST_STATE_PURPOSE = '';

/**
 * The default requestState codec: AES-256-GCM with a fresh random 96-bit nonce per token, so the
 * ledger is both tamper-proof and opaque to clients. Keys are derived with HKDF-SHA256 from
 * configured secrets and carry a key id, so secrets rotate without breaking live flows: put the new
 * secret first, keep the old one second until its tokens have expired (at most `maxFlowMs`).
 *
 * Everything is synchronous `node:crypto` with keys derived once at construction: sealing and
 * opening a typical token takes a few tens of microseconds.
 */
export class AesGcmRequestStateCodec extends RequestStateCodec {
  private readonly sealer: AesGcmTokenSealer;
  private readonly ttlMs: number;
  private readonly maxFlowMs: number;
  private readonly maxTokenChars: number;

  /**
   * `sealer` shares one key ring with the module's other sealed tokens (legacy session ids); without
   * it the codec derives its own from `options.secrets`.
   */
  constructor(
    options: AesGcmRequestStateCodecOptions,
    private readonly clock: McpClock,
    logger: RequestStateLogger = new Logger('McpRequestState'),
    sealer?: AesGcmTokenSealer,
  ) {
    super();
    // The module hands over resolved options; an application constructing the codec itself may not.
    this.ttlMs = positiveInteger(options.ttlMs, MRTR_DEFAULTS.ttlMs, 'ttlMs', 'milliseconds');
    this.maxFlowMs = positiveInteger(options.maxFlowMs, MRTR_DEFAULTS.maxFlowMs, 'maxFlowMs', 'milliseconds');
    this.maxTokenChars =
      options.maxTokenChars !== undefined
        ? positiveInteger(options.maxTokenChars, LIMIT_DEFAULTS.maxRequestStateChars, 'maxTokenChars', 'characters')
        : positiveInteger(options.maxTokenBytes, LIMIT_DEFAULTS.maxRequestStateChars, 'maxTokenBytes', 'characters');
    this.sealer = sealer ?? new AesGcmTokenSealer(options.secrets, logger);
  }

  seal(payload: RequestStatePayload): string {
    const token = this.sealer.seal(Buffer.from(serializeRequestState(payload), 'utf8'), REQUEST_STATE_PURPOSE);
    // The retry would be refused as oversized: say so now, to the client that can shorten its answers.
    if (token.length > this.maxTokenChars) throw new RequestStateTooLargeException(token.length, this.maxTokenChars);
    return token;
  }

  open(token: string): RequestStatePayload {
    let plaintext: Buffer;
    try {
      plaintext = this.sealer.open(token, REQUEST_STATE_PURPOSE, this.maxTokenChars);
    } catch (error) {
      if (error instanceof SealedTokenError) throw new InvalidRequestStateException(error.fault);
      throw error;
    }
    const payload = deserializeRequestState(plaintext.toString('utf8'));
    const now = this.clock.now();
    if (now > payload.startedAt + this.maxFlowMs) throw new ExpiredRequestStateException('flow_expired');
    if (now > payload.issuedAt + this.ttlMs) throw new ExpiredRequestStateException('expired');
    return payload;
  }
}

function positiveInteger(value: number | undefined, fallback: number, name: string, unit: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(
      `McpModule.forRoot({ mrtr: { ${name} } }) must be a positive whole number of ${unit}; got ${String(value)}.`,
    );
  }
  return value;
}
