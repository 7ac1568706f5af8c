import { McpErrorCode } from '../../protocol/mcp-error-codes.js';
import { McpError } from '../../protocol/mcp.error.js';

/**
 * Why a requestState was refused. It travels in `error.data.reason` so a client developer can
 * tell a stale token from a forged one, while the message stays fixed and says nothing more.
 */
export type InvalidRequestStateReason =
  | 'malformed'
  | 'oversized'
  | 'unknown_key'
  | 'authentication_failed'
  | 'expired'
  | 'flow_expired'
  | 'method_mismatch'
  | 'target_mismatch'
  | 'arguments_mismatch'
  | 'principal_mismatch'
  | 'unsupported_version';

/** The one message every refused requestState gets (the reason is in `data`). */
export const INVALID_REQUEST_STATE_MESSAGE = 'Invalid or expired requestState';

/**
 * A retry carried a requestState the server will not honour. The handler does not run; the
 * client should start the call afresh (without requestState).
 */
export class InvalidRequestStateException extends McpError {
  readonly reason: InvalidRequestStateReason;

  constructor(reason: InvalidRequestStateReason) {
    super(McpErrorCode.InvalidParams, INVALID_REQUEST_STATE_MESSAGE, { reason }, 400);
    this.name = 'InvalidRequestStateException';
    this.reason = reason;
  }
}
