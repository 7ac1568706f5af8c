import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { AesGcmRequestStateCodec, type AesGcmRequestStateCodecOptions } from './aes-gcm-request-state-codec.js';
import { ExpiredRequestStateException } from './exceptions/expired-request-state.exception.js';
import {
  InvalidRequestStateException,
  type InvalidRequestStateReason,
} from './exceptions/invalid-request-state.exception.js';
import { McpClock } from '../core/mcp-clock.js';
import { RequestStateCodec } from './request-state-codec.js';
import type { LedgerSlot, RequestStatePayload } from './request-state-payload.js';

class FixedClock extends McpClock {
  constructor(public time: number) {
    super();
  }
  now(): number {
    return this.time;
  }
}

const SECRET_A = 'correct horse battery staple 0001 - secret A';
const SECRET_B = 'correct horse battery staple 0002 - secret B';
const NOW = 1_780_000_000_000;
const quiet = { warn: jest.fn<(msg: string) => void>() };

function codec(options: AesGcmRequestStateCodecOptions = { secrets: [SECRET_A] }, clock = new FixedClock(NOW)) {
  return new AesGcmRequestStateCodec(options, clock, quiet);
}

function payload(overrides: Partial<RequestStatePayload> = {}): RequestStatePayload {
  return {
    method: 'tools/call',
    target: 'book-flight',
    argsDigest: 'T0wJ3WqUq1s3bD9Sg1xX8oQyqv7l9u6Yt4rE2wA1b0c',
    principal: 'alice',
    flowId: 'Xq3vB9kLm2Pa7Rt5Yw1ZcQ', // 16 random bytes, as ReplaySession makes them
    ledger: [
      {
        key: 'elicit-1',
        kind: 'elicitation',
        fingerprint: 'f1',
        answer: { action: 'accept', content: { seat: 'window-seat-12A', vegan: true } },
      },
      {
        key: 'sample-2',
        kind: 'sampling',
        fingerprint: 'f2',
        answer: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' },
      },
      { key: 'roots-3', kind: 'roots', fingerprint: 'f3', answer: { roots: [{ uri: 'file:///w', name: 'W' }] } },
      { key: 'passport', kind: 'elicitation', fingerprint: 'f4' },
      { key: 'elicit-5', kind: 'elicitation', fingerprint: 'f5' },
    ],
    issuedAt: NOW,
    startedAt: NOW - 1000,
    ...overrides,
  };
}

function reasonOf(fn: () => unknown): InvalidRequestStateReason | 'accepted' | 'other' {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return e instanceof InvalidRequestStateException ? e.reason : 'other';
  }
}

describe('AesGcmRequestStateCodec', () => {
  describe('round trip', () => {
    it('opens exactly what it sealed: binding, answered and pending slots, explicit keys', () => {
      const c = codec();
      expect(c).toBeInstanceOf(RequestStateCodec);
      expect(c.open(c.seal(payload()))).toEqual(payload());
    });

    it('keeps a null principal null and an empty ledger empty', () => {
      const c = codec();
      const p = payload({ principal: null, ledger: [] });
      expect(c.open(c.seal(p))).toEqual(p);
    });

    it('draws a fresh nonce per token', () => {
      const c = codec();
      const tokens = new Set(Array.from({ length: 20 }, () => c.seal(payload())));
      expect(tokens.size).toBe(20);
    });

    it('writes only base64url characters', () => {
      expect(codec().seal(payload())).toMatch(/^[A-Za-z0-9_-]+$/);
    });

    it('is opaque: neither the token nor its bytes show the method, target or answers', () => {
      const token = codec().seal(payload());
      const bytes = Buffer.from(token, 'base64url').toString('latin1');
      for (const secret of ['tools/call', 'book-flight', 'window-seat-12A', 'alice', 'passport']) {
        expect(token).not.toContain(secret);
        expect(bytes).not.toContain(secret);
      }
    });

    it('opens tokens of another codec instance built from the same secret (another node)', () => {
      expect(codec().open(codec().seal(payload()))).toEqual(payload());
    });
  });

  describe('tampering', () => {
    const c = codec();
    const token = c.seal(payload());

    it('rejects every single-character change of the token string', () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const accepted: number[] = [];
      for (let i = 0; i < token.length; i++) {
        for (const shift of [1, 32]) {
          const replacement = alphabet[(alphabet.indexOf(token[i]!) + shift) % 64]!;
          const changed = token.slice(0, i) + replacement + token.slice(i + 1);
          if (reasonOf(() => c.open(changed)) === 'accepted') accepted.push(i);
        }
      }
      expect(accepted).toEqual([]);
    });

    it('rejects every single-byte flip of the decoded token, for the right reason', () => {
      const bytes = Buffer.from(token, 'base64url');
      const reasons = new Map<number, string>();
      for (let i = 0; i < bytes.length; i++) {
        const flipped = Buffer.from(bytes);
        flipped[i] = flipped[i]! ^ 0xff;
        reasons.set(
          i,
          reasonOf(() => c.open(flipped.toString('base64url'))),
        );
      }
      expect(reasons.get(0)).toBe('unsupported_version');
      for (const i of [1, 2, 3, 4]) expect(reasons.get(i)).toBe('unknown_key');
      for (let i = 5; i < bytes.length; i++) expect(reasons.get(i)).toBe('authentication_failed');
    });

    it('rejects a token with text appended (conformance "-TAMPERED")', () => {
      expect(reasonOf(() => c.open(`${token}-TAMPERED`))).toMatch(/^(malformed|authentication_failed)$/);
    });

    it('rejects a truncated token', () => {
      const bytes = Buffer.from(token, 'base64url');
      expect(reasonOf(() => c.open(bytes.subarray(0, bytes.length - 1).toString('base64url')))).toBe(
        'authentication_failed',
      );
      // Cutting the string may also leave a non-canonical last character: refused either way.
      for (let cut = 1; cut <= 4; cut++) {
        expect(reasonOf(() => c.open(token.slice(0, -cut)))).toMatch(/^(malformed|authentication_failed)$/);
      }
    });

    it('accepts only the one spelling of its bytes, whatever the length of the token', () => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      // Tokens of every length modulo 4 that base64url produces (0, 2 and 3 characters left over).
      const tokens = ['x', 'xy', 'xyz'].map((target) => c.seal(payload({ target })));
      expect(new Set(tokens.map((t) => t.length % 4)).size).toBe(3);
      for (const genuine of tokens) {
        expect(c.open(genuine).target).toMatch(/^x/);
        for (const char of alphabet) {
          const respelled = genuine.slice(0, -1) + char;
          if (respelled === genuine) continue;
          // A spelling that does not encode back to itself is malformed; other bytes fail the tag.
          const canonical = Buffer.from(respelled, 'base64url').toString('base64url') === respelled;
          expect(reasonOf(() => c.open(respelled))).toBe(canonical ? 'authentication_failed' : 'malformed');
        }
      }
    });

    it('rejects a token sealed under a key it does not hold', () => {
      expect(reasonOf(() => c.open(codec({ secrets: [SECRET_B] }).seal(payload())))).toBe('unknown_key');
    });

    it('rejects a header moved onto another key id (the header is authenticated)', () => {
      const foreign = Buffer.from(codec({ secrets: [SECRET_B] }).seal(payload()), 'base64url');
      Buffer.from(token, 'base64url').copy(foreign, 0, 0, 5);
      expect(reasonOf(() => c.open(foreign.toString('base64url')))).toBe('authentication_failed');
    });

    it('rejects an unknown format version', () => {
      const bytes = Buffer.from(token, 'base64url');
      bytes[0] = 2;
      expect(reasonOf(() => c.open(bytes.toString('base64url')))).toBe('unsupported_version');
    });

    it.each([
      ['non-base64url characters', 'not/base64+at all=='],
      ['an empty string', ''],
      ['fewer bytes than header, nonce and tag', 'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['a non-canonical base64url spelling', 'AQ'.padEnd(60, 'A') + 'B'],
      ['a non-string', 42 as unknown as string],
    ])('rejects %s as malformed', (_label, bad) => {
      expect(reasonOf(() => c.open(bad))).toBe('malformed');
    });

    it('rejects a genuine token whose plaintext is not a payload', () => {
      // Seals by hand with the documented derivation, which also pins the format: changing it
      // must be a deliberate new format version.
      const salt = 'mocapi-nestjs/mrtr/request-state';
      const key = Buffer.from(hkdfSync('sha256', SECRET_A, salt, 'aes-256-gcm key v1', 32));
      const header = Buffer.concat([Buffer.from([1]), Buffer.from(hkdfSync('sha256', SECRET_A, salt, 'key id v1', 4))]);
      for (const plaintext of [
        'not json',
        '[]',
        '{"m":"tools/call"}',
        JSON.stringify({ m: 'a', t: 'b', a: 'c', p: null, i: 1, s: 1, l: [['x', 'f']] }),
      ]) {
        const nonce = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, nonce);
        cipher.setAAD(header);
        const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
        const forged = Buffer.concat([header, nonce, body, cipher.getAuthTag()]).toString('base64url');
        expect(reasonOf(() => c.open(forged))).toBe('malformed');
      }
    });

    it('answers with -32602, the fixed message and HTTP 400', () => {
      try {
        c.open('garbage!');
        throw new Error('not rejected');
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidRequestStateException);
        const err = e as InvalidRequestStateException;
        expect(err.code).toBe(McpErrorCode.InvalidParams);
        expect(err.message).toBe('Invalid or expired requestState');
        expect(err.data).toEqual({ reason: 'malformed' });
        expect(err.httpStatus).toBe(400);
      }
    });
  });

  describe('size bound', () => {
    it('refuses an oversized token before decoding it', () => {
      // '!' is not base64url: had anything decoded it first, the reason would be 'malformed'.
      expect(reasonOf(() => codec().open('!'.repeat(65_537)))).toBe('oversized');
      expect(reasonOf(() => codec().open('!'.repeat(65_536)))).toBe('malformed');
    });

    it('applies a configured maxTokenBytes to real tokens', () => {
      const token = codec().seal(payload());
      expect(reasonOf(() => codec({ secrets: [SECRET_A], maxTokenBytes: token.length }).open(token))).toBe('accepted');
      expect(reasonOf(() => codec({ secrets: [SECRET_A], maxTokenBytes: token.length - 1 }).open(token))).toBe(
        'oversized',
      );
    });

    it('refuses to seal a token it would refuse to open, naming the setting', () => {
      const small = codec({ secrets: [SECRET_A], maxTokenBytes: 100 });
      expect(() => small.seal(payload())).toThrow(
        expect.objectContaining({
          code: -32602,
          data: expect.objectContaining({ reason: 'state_too_large', limit: 100 }),
        }),
      );
    });
  });

  describe('expiry', () => {
    it('accepts a token exactly at the per-round TTL and refuses it 1 ms later', () => {
      const clock = new FixedClock(NOW);
      const c = codec({ secrets: [SECRET_A], ttlMs: 60_000 }, clock);
      const token = c.seal(payload({ issuedAt: NOW, startedAt: NOW }));
      clock.time = NOW + 60_000;
      expect(c.open(token).issuedAt).toBe(NOW);
      clock.time = NOW + 60_001;
      expect(() => c.open(token)).toThrow(ExpiredRequestStateException);
      expect(reasonOf(() => c.open(token))).toBe('expired');
    });

    it('defaults the per-round TTL to 5 minutes', () => {
      const clock = new FixedClock(NOW + 300_000);
      const token = codec().seal(payload({ issuedAt: NOW, startedAt: NOW }));
      expect(reasonOf(() => codec(undefined, clock).open(token))).toBe('accepted');
      clock.time += 1;
      expect(reasonOf(() => codec(undefined, clock).open(token))).toBe('expired');
    });

    it('refuses a flow older than maxFlowMs even when its last round is fresh', () => {
      const clock = new FixedClock(NOW);
      const c = codec({ secrets: [SECRET_A], maxFlowMs: 3_600_000 }, clock);
      const edge = c.seal(payload({ issuedAt: NOW, startedAt: NOW - 3_600_000 }));
      const past = c.seal(payload({ issuedAt: NOW, startedAt: NOW - 3_600_001 }));
      expect(reasonOf(() => c.open(edge))).toBe('accepted');
      expect(() => c.open(past)).toThrow(ExpiredRequestStateException);
      expect(reasonOf(() => c.open(past))).toBe('flow_expired');
    });
  });

  describe('key ring', () => {
    it('opens tokens of a secret that moved to second place, and seals with the first', () => {
      const before = codec({ secrets: [SECRET_A] });
      const rotated = codec({ secrets: [SECRET_B, SECRET_A] });
      const old = before.seal(payload());
      expect(rotated.open(old)).toEqual(payload());
      const fresh = rotated.seal(payload());
      expect(reasonOf(() => before.open(fresh))).toBe('unknown_key');
      expect(codec({ secrets: [SECRET_B] }).open(fresh)).toEqual(payload());
    });

    it('refuses tokens of a secret removed from the ring', () => {
      const old = codec({ secrets: [SECRET_A] }).seal(payload());
      expect(reasonOf(() => codec({ secrets: [SECRET_B] }).open(old))).toBe('unknown_key');
    });

    it('accepts a repeated secret', () => {
      const c = codec({ secrets: [SECRET_A, SECRET_A] });
      expect(c.open(c.seal(payload()))).toEqual(payload());
    });
  });

  describe('configuration', () => {
    it('refuses a short secret with a message saying what to set', () => {
      const build = () => codec({ secrets: [SECRET_A, 'too-short'] });
      expect(build).toThrow(/McpModule\.forRoot\(\{ mrtr: \{ secrets: \[\.\.\.\] \} \}\)/);
      expect(build).toThrow(/secret #2 is 9 characters/);
      expect(build).toThrow(/at least 32 characters/);
      expect(build).toThrow(/openssl rand -base64 48/);
      expect(build).not.toThrow(/too-short/);
    });

    it('refuses a non-string secret', () => {
      expect(() => codec({ secrets: [42 as unknown as string] })).toThrow(/secret #1 is number/);
    });

    it.each([
      [{ ttlMs: 0 }, /ttlMs/],
      [{ maxFlowMs: -1 }, /maxFlowMs/],
      [{ maxTokenBytes: Number.NaN }, /maxTokenBytes/],
      [{ ttlMs: 1.5 }, /ttlMs/],
    ])('refuses the limit %p', (limits, message) => {
      expect(() => codec({ secrets: [SECRET_A], ...limits })).toThrow(message);
    });

    it('without secrets uses a random key and warns once that tokens die on restart and across nodes', () => {
      const logger = { warn: jest.fn<(msg: string) => void>() };
      const c = new AesGcmRequestStateCodec({}, new FixedClock(NOW), logger);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn.mock.calls[0]![0]).toMatch(/restart/);
      expect(logger.warn.mock.calls[0]![0]).toMatch(/nodes/);
      expect(logger.warn.mock.calls[0]![0]).toMatch(/mrtr: \{ secrets/);
      expect(c.open(c.seal(payload()))).toEqual(payload());
      const other = new AesGcmRequestStateCodec({ secrets: [] }, new FixedClock(NOW), logger);
      expect(reasonOf(() => other.open(c.seal(payload())))).toBe('unknown_key');
    });

    it('does not warn when secrets are configured', () => {
      const logger = { warn: jest.fn<(msg: string) => void>() };
      new AesGcmRequestStateCodec({ secrets: [SECRET_A] }, new FixedClock(NOW), logger);
      expect(logger.warn).not.toHaveBeenCalled();
    });
  });

  describe('size', () => {
    function answered(n: number): LedgerSlot[] {
      return Array.from({ length: n }, (_, i) => ({
        key: `elicit-${i + 1}`,
        kind: 'elicitation' as const,
        fingerprint: 'qL8cB1mD0S3o0uTq2m2f1m1bq7y3qfVtZCq3bKp1y2s',
        answer: { action: 'accept' as const, content: { name: 'Alice Example', age: 42, newsletter: true } },
      }));
    }

    it('grows about linearly with the ledger and stays far below the default bound', () => {
      const c = codec();
      const base = { principal: 'user-7f3a9c', argsDigest: 'T0wJ3WqUq1s3bD9Sg1xX8oQyqv7l9u6Yt4rE2wA1b0c' };
      const sizes = [1, 10, 50].map((n) => c.seal(payload({ ...base, ledger: answered(n) })).length);
      console.log(`requestState size (chars) for 1 / 10 / 50 answered elicitations: ${sizes.join(' / ')}`);
      const [one, ten, fifty] = sizes as [number, number, number];
      const perSlot = (fifty - ten) / 40;
      expect(perSlot).toBeGreaterThan(100);
      expect(perSlot).toBeLessThan(200);
      expect(one).toBeLessThan(450); // the flow id costs about 40 characters
      expect(fifty).toBeLessThan(65_536 / 4);
    });
  });
});
