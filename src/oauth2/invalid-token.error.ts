/**
 * The presented access token cannot be accepted (bad signature, wrong issuer or audience, expired,
 * malformed, unknown key). Answered with 401 `invalid_token`; anything else that goes wrong while
 * verifying (the issuer unreachable, say) is a server-side failure instead.
 */
export class InvalidTokenError extends Error {
  constructor(
    /** Safe to send to the client in `error_description`. */
    readonly description: string,
    options?: { cause?: unknown },
  ) {
    super(description, options);
    this.name = 'InvalidTokenError';
  }
}
