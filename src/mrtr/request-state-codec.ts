import type { RequestStatePayload } from './request-state-payload.js';

/**
 * Turns the flow's state into the opaque `requestState` string the client echoes back, and back.
 * Internal (not exported from the package): the module's one implementation is
 * {@link AesGcmRequestStateCodec}, configured by `McpModule.forRoot({ mrtr })`.
 *
 * `open` must establish that the token is genuine, readable by this format version, not larger
 * than allowed and not expired (per round and per flow), throwing `InvalidRequestStateException`
 * / `ExpiredRequestStateException` otherwise. Whether it fits the current call (method, target,
 * arguments, principal) is checked by the caller with `verifyBinding`, not here.
 */
export abstract class RequestStateCodec {
  /** The token for the next round; called once per `input_required` answer, on the hot path. */
  abstract seal(payload: RequestStatePayload): string;
  /** The payload of a token the client echoed back, or an `InvalidRequestStateException`. */
  abstract open(token: string): RequestStatePayload;
}
