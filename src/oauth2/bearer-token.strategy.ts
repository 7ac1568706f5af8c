import type { IncomingMessage } from 'node:http';
import { Strategy } from 'passport-strategy';
import { InvalidTokenError } from './invalid-token.error.js';

/** Why a request was refused, as handed to passport's `fail` (the authenticator turns it into a challenge). */
export interface BearerFailure {
  /** Absent when the request carried no bearer credentials at all (RFC 6750 §3.1). */
  readonly error?: 'invalid_token';
  readonly description?: string;
}

/** Passport's verify callback for this strategy: receives the raw token. */
export type BearerVerifyFunction = (
  token: string,
  done: (error: unknown, user?: unknown, info?: unknown) => void,
) => void;

/** RFC 6750 §2.1: `Bearer` (any case), one space run, then a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BEARER_SCHEME = /^Bearer(?: |$)/i;

/**
 * A passport strategy that takes the access token from the `Authorization: Bearer` header and
 * nowhere else: a token in the query string or the body is ignored (MCP forbids it, RFC 6750 §2.3
 * leaks it into logs). Verification belongs to the verify callback; this class only maps its
 * outcome onto passport's `success` / `fail` / `error`.
 */
export class BearerTokenStrategy extends Strategy {
  name: string;

  constructor(private readonly verifyToken: BearerVerifyFunction) {
    super();
    this.name = 'bearer';
  }

  override authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization;
    if (header === undefined || !BEARER_SCHEME.test(header)) {
      this.fail({} satisfies BearerFailure, 401);
      return;
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) {
      this.fail({ error: 'invalid_token', description: 'Malformed bearer credentials' } satisfies BearerFailure, 401);
      return;
    }
    this.verifyToken(token, (error, user) => {
      if (error instanceof InvalidTokenError) {
        this.fail({ error: 'invalid_token', description: error.description } satisfies BearerFailure, 401);
      } else if (error) {
        this.error(error instanceof Error ? error : new Error(String(error)));
      } else if (!user) {
        this.fail({ error: 'invalid_token', description: 'The access token is invalid' } satisfies BearerFailure, 401);
      } else {
        this.success(user);
      }
    });
  }
}
