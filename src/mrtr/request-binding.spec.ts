import { canonicalJson, sha256Base64url } from './canonical-json.js';
import { InvalidRequestStateException } from './exceptions/invalid-request-state.exception.js';
import { argumentsDigest, verifyBinding } from './request-binding.js';
import type { RequestBinding } from './request-state-payload.js';

describe('argumentsDigest', () => {
  it('is the base64url SHA-256 of the canonical JSON', () => {
    expect(argumentsDigest({ b: 1, a: [true] })).toBe(sha256Base64url(canonicalJson({ a: [true], b: 1 })));
  });

  it('ignores key order and number spelling, not values', () => {
    expect(argumentsDigest(JSON.parse('{"x":1.0,"y":{"q":2,"p":1}}'))).toBe(
      argumentsDigest({ y: { p: 1, q: 2 }, x: 1 }),
    );
    expect(argumentsDigest({ x: 1 })).not.toBe(argumentsDigest({ x: 2 }));
    expect(argumentsDigest({ x: '1' })).not.toBe(argumentsDigest({ x: 1 }));
  });

  it('treats absent arguments as {}', () => {
    expect(argumentsDigest(undefined)).toBe(argumentsDigest({}));
    expect(argumentsDigest(null)).toBe(argumentsDigest({}));
    expect(argumentsDigest([])).not.toBe(argumentsDigest({}));
  });
});

describe('verifyBinding', () => {
  const bound: RequestBinding = { method: 'tools/call', target: 'pay', argsDigest: 'd1', principal: 'alice' };

  it('accepts the same call', () => {
    expect(() => verifyBinding(bound, { ...bound })).not.toThrow();
    expect(() => verifyBinding({ ...bound, principal: null }, { ...bound, principal: null })).not.toThrow();
  });

  it.each([
    [{ method: 'prompts/get' }, 'method_mismatch'],
    [{ method: 'resources/read' }, 'method_mismatch'],
    [{ target: 'refund' }, 'target_mismatch'],
    [{ argsDigest: 'd2' }, 'arguments_mismatch'],
    [{ principal: 'bob' }, 'principal_mismatch'],
    [{ principal: null }, 'principal_mismatch'],
  ] as const)('refuses %p with %s', (change, reason) => {
    try {
      verifyBinding(bound, { ...bound, ...change });
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidRequestStateException);
      expect((e as InvalidRequestStateException).reason).toBe(reason);
      expect((e as InvalidRequestStateException).message).toBe('Invalid or expired requestState');
    }
  });

  it('refuses an anonymous token presented by an authenticated caller', () => {
    expect(() => verifyBinding({ ...bound, principal: null }, bound)).toThrow(InvalidRequestStateException);
  });
});
