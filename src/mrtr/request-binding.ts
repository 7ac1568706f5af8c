import { canonicalJson, sha256Base64url } from './canonical-json.js';
import { InvalidRequestStateException } from './exceptions/invalid-request-state.exception.js';
import type { RequestBinding } from './request-state-payload.js';

/**
 * The digest a requestState binds the call's arguments with: SHA-256 (base64url) over their RFC 8785
 * canonical JSON, so a retry that changes any argument value is refused while key order and number
 * spelling do not matter. Absent arguments count as `{}`, as the spec's tools/call does.
 */
export function argumentsDigest(args: unknown): string {
  return sha256Base64url(canonicalJson(args ?? {}));
}

/**
 * Refuses a requestState presented on another call than the one it was issued for: another method,
 * target (tool / prompt name, resource URI), arguments or caller. Run it after the codec opened the
 * token and before the handler runs.
 *
 * @throws InvalidRequestStateException with reason method_mismatch, target_mismatch,
 *   arguments_mismatch or principal_mismatch.
 */
export function verifyBinding(payload: RequestBinding, expected: RequestBinding): void {
  if (payload.method !== expected.method) throw new InvalidRequestStateException('method_mismatch');
  if (payload.target !== expected.target) throw new InvalidRequestStateException('target_mismatch');
  if (payload.argsDigest !== expected.argsDigest) throw new InvalidRequestStateException('arguments_mismatch');
  if ((payload.principal ?? null) !== (expected.principal ?? null)) {
    throw new InvalidRequestStateException('principal_mismatch');
  }
}
