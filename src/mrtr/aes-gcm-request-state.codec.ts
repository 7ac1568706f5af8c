import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, randomFillSync, type KeyObject } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ExpiredRequestStateException } from './exceptions/expired-request-state.exception.js';
import { InvalidRequestStateException } from './exceptions/invalid-request-state.exception.js';
import type { McpClock } from './mcp-clock.js';
import { RequestStateCodec } from './request-state.codec.js';
import type { RequestStatePayload } from './request-state.payload.js';
import { deserializeRequestState, serializeRequestState } from './request-state.serializer.js';

/** Settings of {@link AesGcmRequestStateCodec}; the same shape as `McpModule.forRoot({ mrtr })`. */
export interface AesGcmRequestStateCodecOptions {
  /** Key ring: the first secret seals, every secret opens. Each at least 32 characters. */
  secrets?: readonly string[];
  /** Per-round time to live, ms. Default 300 000 (5 minutes). */
  ttlMs?: number;
  /** Absolute lifetime of a flow across all its rounds, ms. Default 3 600 000 (1 hour). */
  maxFlowMs?: number;
  /** Largest token accepted, in characters, checked before any decoding. Default 65 536. */
  maxTokenBytes?: number;
}

/** Where the random-key warning goes; Nest's `Logger` fits. */
export interface RequestStateLogger {
  warn(message: string): void;
}

/*
 * Token layout, base64url without padding:
 *
 *   version (1) | key id (4) | nonce (12) | ciphertext | GCM tag (16)
 *
 * version and key id form the header, authenticated as AAD: a token cannot be moved to another
 * key or format version without failing the tag.
 */
const FORMAT_VERSION = 1;
const KEY_ID_BYTES = 4;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const MIN_SECRET_CHARS = 32;
const HKDF_SALT = 'mocapi-nestjs/mrtr/request-state';
const HKDF_INFO_KEY = 'aes-256-gcm key v1';
const HKDF_INFO_KEY_ID = 'key id v1';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const DEFAULT_TTL_MS = 300_000;
const DEFAULT_MAX_FLOW_MS = 3_600_000;
const DEFAULT_MAX_TOKEN_BYTES = 65_536;

interface RingKey {
  readonly header: Buffer;
  readonly key: KeyObject;
}

/**
 * The default requestState codec: AES-256-GCM with a fresh random 96-bit nonce per token, so the
 * ledger is both tamper-proof and opaque to clients. Keys are derived with HKDF-SHA256 from
 * configured secrets and carry a key id, so secrets rotate without breaking live flows: put the new
 * secret first, keep the old one second until its tokens have expired (at most `maxFlowMs`).
 *
 * Everything is synchronous `node:crypto` with keys derived once at construction: sealing and
 * opening a typical token takes a few tens of microseconds.
 *
 * @publicApi
 */
export class AesGcmRequestStateCodec extends RequestStateCodec {
  private readonly sealing: RingKey;
  private readonly opening = new Map<number, KeyObject>();
  private readonly ttlMs: number;
  private readonly maxFlowMs: number;
  private readonly maxTokenBytes: number;

  constructor(
    options: AesGcmRequestStateCodecOptions,
    private readonly clock: McpClock,
    logger: RequestStateLogger = new Logger('McpRequestState'),
  ) {
    super();
    this.ttlMs = positiveInteger(options.ttlMs, DEFAULT_TTL_MS, 'ttlMs', 'milliseconds');
    this.maxFlowMs = positiveInteger(options.maxFlowMs, DEFAULT_MAX_FLOW_MS, 'maxFlowMs', 'milliseconds');
    this.maxTokenBytes = positiveInteger(options.maxTokenBytes, DEFAULT_MAX_TOKEN_BYTES, 'maxTokenBytes', 'characters');

    const secrets = options.secrets ?? [];
    if (!Array.isArray(secrets)) {
      throw new Error('McpModule.forRoot({ mrtr: { secrets } }) must be an array of strings.');
    }
    const ring = secrets.length > 0 ? deriveRing(secrets) : [randomRingKey()];
    if (secrets.length === 0) {
      logger.warn(
        'No requestState secret configured: elicitation tokens are sealed with a random per-process key, so they ' +
          'will not survive a restart or cross nodes. Set McpModule.forRoot({ mrtr: { secrets: [...] } }) with a ' +
          'shared secret of at least 32 characters (e.g. `openssl rand -base64 48`).',
      );
    }
    this.sealing = ring[0]!;
    for (const { header, key } of ring) {
      const id = header.readUInt32BE(1);
      if (this.opening.has(id)) {
        throw new Error('McpModule.forRoot({ mrtr: { secrets } }): two secrets derive the same key id; replace one of them.');
      }
      this.opening.set(id, key);
    }
  }

  seal(payload: RequestStatePayload): string {
    const plaintext = Buffer.from(serializeRequestState(payload), 'utf8');
    const nonce = nextNonce();
    const cipher = createCipheriv('aes-256-gcm', this.sealing.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.sealing.header);
    const body = cipher.update(plaintext);
    cipher.final(); // GCM is a stream mode: final() only computes the tag.
    const token = Buffer.concat([this.sealing.header, nonce, body, cipher.getAuthTag()]).toString('base64url');
    if (token.length > this.maxTokenBytes) {
      // The retry would be refused as oversized; failing here puts the cause in the server's logs.
      throw new Error(
        `requestState of ${token.length} characters exceeds mrtr.maxTokenBytes (${this.maxTokenBytes}): ` +
          'the flow accumulated too many or too large answers.',
      );
    }
    return token;
  }

  open(token: string): RequestStatePayload {
    if (typeof token !== 'string') throw new InvalidRequestStateException('malformed');
    // First, before spending any work on it: the size bound.
    if (token.length > this.maxTokenBytes) throw new InvalidRequestStateException('oversized');
    if (!BASE64URL.test(token)) throw new InvalidRequestStateException('malformed');
    const bytes = Buffer.from(token, 'base64url');
    // Base64url has several spellings of the same bytes (unused trailing bits); accept only ours, so
    // that any change to the token string is a rejected token.
    if (bytes.length < HEADER_BYTES + NONCE_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) {
      throw new InvalidRequestStateException('malformed');
    }
    if (bytes[0] !== FORMAT_VERSION) throw new InvalidRequestStateException('unsupported_version');
    const key = this.opening.get(bytes.readUInt32BE(1));
    if (key === undefined) throw new InvalidRequestStateException('unknown_key');

    const tagStart = bytes.length - TAG_BYTES;
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(bytes.subarray(0, HEADER_BYTES));
    decipher.setAuthTag(bytes.subarray(tagStart));
    let plaintext: Buffer;
    try {
      const head = decipher.update(bytes.subarray(HEADER_BYTES + NONCE_BYTES, tagStart));
      const tail = decipher.final();
      plaintext = tail.length === 0 ? head : Buffer.concat([head, tail]);
    } catch {
      throw new InvalidRequestStateException('authentication_failed');
    }

    const payload = deserializeRequestState(plaintext.toString('utf8'));
    const now = this.clock.now();
    if (now > payload.startedAt + this.maxFlowMs) throw new ExpiredRequestStateException('flow_expired');
    if (now > payload.issuedAt + this.ttlMs) throw new ExpiredRequestStateException('expired');
    return payload;
  }
}

/*
 * Each call into the CSPRNG costs ~10 µs whatever its size, a third of a seal; so nonces come from a
 * pool refilled every 256 tokens. Every 12-byte slice is used once, and copied (by createCipheriv
 * and Buffer.concat) before the pool can be refilled.
 */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

function nextNonce(): Buffer {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.subarray(nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

function deriveRing(secrets: readonly string[]): RingKey[] {
  const seen = new Set<string>();
  const ring: RingKey[] = [];
  secrets.forEach((secret, index) => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_CHARS) {
      const got = typeof secret === 'string' ? `${secret.length} characters` : typeof secret;
      throw new Error(
        `McpModule.forRoot({ mrtr: { secrets: [...] } }): secret #${index + 1} is ${got}; every requestState ` +
          `secret must be a string of at least ${MIN_SECRET_CHARS} characters (generate one with ` +
          '`openssl rand -base64 48`).',
      );
    }
    if (seen.has(secret)) return; // a repeated secret adds nothing to the ring
    seen.add(secret);
    const keyId = Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO_KEY_ID, KEY_ID_BYTES));
    const key = Buffer.from(hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO_KEY, 32));
    ring.push({ header: header(keyId), key: createSecretKey(key) });
  });
  return ring;
}

function randomRingKey(): RingKey {
  return { header: header(randomBytes(KEY_ID_BYTES)), key: createSecretKey(randomBytes(32)) };
}

function header(keyId: Buffer): Buffer {
  const out = Buffer.alloc(HEADER_BYTES);
  out[0] = FORMAT_VERSION;
  keyId.copy(out, 1);
  return out;
}

function positiveInteger(value: number | undefined, fallback: number, name: string, unit: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`McpModule.forRoot({ mrtr: { ${name} } }) must be a positive whole number of ${unit}; got ${String(value)}.`);
  }
  return value;
}
