import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { randomSlice } from './random-pool.js';

/** Why a sealed token could not be opened (before its content is even looked at). */
export type SealedTokenFault =
  'malformed' | 'oversized' | 'unknown_key' | 'authentication_failed' | 'unsupported_version';

/** Thrown by {@link AesGcmTokenSealer.open}; each token kind maps it to its own wire error. */
export class SealedTokenError extends Error {
  constructor(readonly fault: SealedTokenFault) {
    super(`Sealed token refused: ${fault}`);
    this.name = 'SealedTokenError';
  }
}

/** Where the random-key warning goes; Nest's `Logger` fits. */
export interface TokenSealerLogger {
  warn(message: string): void;
}

/*
 * Token layout, base64url without padding:
 *
 *   version (1) | key id (4) | nonce (12) | ciphertext | GCM tag (16)
 *
 * version and key id form the header, authenticated as AAD together with the token's purpose: a
 * token cannot be moved to another key, format version or purpose (a session id presented as a
 * requestState, or the reverse) without failing the tag.
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

interface RingKey {
  readonly header: Buffer;
  readonly key: KeyObject;
}

/**
 * The key ring every sealed token of the module uses (requestState, legacy session ids): AES-256-GCM
 * with a fresh random 96-bit nonce per token, keys derived with HKDF-SHA256 from the configured
 * secrets (`mrtr.secrets`: the first seals, all open). Without secrets, a random per-process key and
 * one warning.
 */
export class AesGcmTokenSealer {
  private readonly sealing: RingKey;
  private readonly opening = new Map<number, KeyObject>();
  private readonly aads = new Map<string, Buffer>();

  /**
   * `scope`, when given, joins every token's authenticated data: a token sealed under one scope (one
   * server of an application that runs several) does not open under another.
   */
  constructor(
    secrets: readonly string[] | undefined,
    logger: TokenSealerLogger,
    private readonly scope?: string,
  ) {
    const list = secrets ?? [];
    if (!Array.isArray(list)) {
      throw new Error('McpModule.forRoot({ mrtr: { secrets } }) must be an array of strings.');
    }
    const ring = list.length > 0 ? deriveRing(list) : [randomRingKey()];
    if (list.length === 0) {
      logger.warn(
        'No requestState secret configured: elicitation tokens and session ids are sealed with a random per-process ' +
          'key, so they will not survive a restart or cross nodes. Set McpModule.forRoot({ mrtr: { secrets: [...] } }) ' +
          'with a shared secret of at least 32 characters (e.g. `openssl rand -base64 48`).',
      );
    }
    this.sealing = ring[0]!;
    for (const { header, key } of ring) {
      const id = header.readUInt32BE(1);
      if (this.opening.has(id)) {
        throw new Error(
          'McpModule.forRoot({ mrtr: { secrets } }): two secrets derive the same key id; replace one of them.',
        );
      }
      this.opening.set(id, key);
    }
  }

  /** `purpose` separates token kinds; the empty purpose is the requestState's (format v1). */
  seal(plaintext: Buffer, purpose: string): string {
    // A view into the random pool: createCipheriv and Buffer.concat copy it before the next use.
    const nonce = randomSlice(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealing.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.aad(this.sealing.header, purpose));
    const body = cipher.update(plaintext);
    cipher.final(); // GCM is a stream mode: final() only computes the tag.
    return Buffer.concat([this.sealing.header, nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The plaintext of a genuine token of this purpose; checks the size bound before anything else. */
  open(token: string, purpose: string, maxChars: number): Buffer {
    if (typeof token !== 'string') throw new SealedTokenError('malformed');
    if (token.length > maxChars) throw new SealedTokenError('oversized');
    // Base64url has several spellings of the same bytes (unused trailing bits); accept only ours, so
    // that any change to the token string is a rejected token.
    if (!BASE64URL.test(token) || !canonicalBase64urlEnd(token)) throw new SealedTokenError('malformed');
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length < HEADER_BYTES + NONCE_BYTES + TAG_BYTES) throw new SealedTokenError('malformed');
    if (bytes[0] !== FORMAT_VERSION) throw new SealedTokenError('unsupported_version');
    const key = this.opening.get(bytes.readUInt32BE(1));
    if (key === undefined) throw new SealedTokenError('unknown_key');

    const tagStart = bytes.length - TAG_BYTES;
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(this.aad(bytes.subarray(0, HEADER_BYTES), purpose));
    decipher.setAuthTag(bytes.subarray(tagStart));
    try {
      const head = decipher.update(bytes.subarray(HEADER_BYTES + NONCE_BYTES, tagStart));
      const tail = decipher.final();
      return tail.length === 0 ? head : Buffer.concat([head, tail]);
    } catch {
      throw new SealedTokenError('authentication_failed');
    }
  }

  private aad(header: Buffer, purpose: string): Buffer {
    if (purpose === '' && this.scope === undefined) return header;
    let suffix = this.aads.get(purpose);
    if (!suffix) {
      suffix = Buffer.from(this.scope === undefined ? `|${purpose}` : `|${purpose}@${this.scope}`, 'utf8');
      this.aads.set(purpose, suffix);
    }
    return Buffer.concat([header, suffix]);
  }
}

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Whether an unpadded base64url text (of alphabet characters only) is the one spelling its bytes
 * encode to: its length is not 1 more than a multiple of 4, and the bits of its last character that
 * carry no data are zero (4 of them after 2 characters of a group, 2 after 3). Equivalent to
 * decoding and encoding again, without the second pass.
 */
function canonicalBase64urlEnd(text: string): boolean {
  const rest = text.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  const last = BASE64URL_ALPHABET.indexOf(text[text.length - 1]!);
  return (last & (rest === 2 ? 0b1111 : 0b11)) === 0;
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
