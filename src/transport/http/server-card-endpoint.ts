import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { McpServerCard } from './server-card.options.js';

/** The extension identifier of Server Cards (SEP-2127), declared in `capabilities.extensions`. */
export const SERVER_CARD_EXTENSION = 'io.modelcontextprotocol/server-card';

/** The media type of a Server Card. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** Injection token of the server's {@link McpServerCard}, or null when it serves none. */
export const MCP_SERVER_CARD = Symbol.for('mocapi:server-card');

/**
 * What every answer carries: any origin may read the card (it is public, read-only metadata), with
 * the revalidation header of a conditional GET, and see its ETag.
 */
const CORS: OutgoingHttpHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
};
const CACHE_CONTROL = 'public, max-age=3600';
const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * The Server Card of one server at `<path>/server-card`: GET (and HEAD) answer the card, built once
 * with its strong ETag, or 304 when `If-None-Match` names that ETag; OPTIONS answers a CORS
 * preflight; any other method is 405. Neither the endpoint's Origin and Host checks nor its
 * authenticator apply: the card is public discovery metadata, read before a client connects or
 * signs in, from any origin, and the same for every request (nothing in it comes from the request).
 */
export class ServerCardEndpoint {
  /** Where the card is served: the server's path and `/server-card`. */
  readonly path: string;
  readonly etag: string;
  private readonly body: Buffer;
  private readonly headers: OutgoingHttpHeaders;

  constructor(card: McpServerCard, serverPath: string) {
    this.path = `${serverPath === '/' ? '' : serverPath}/server-card`;
    this.body = Buffer.from(JSON.stringify(card));
    this.etag = `"${createHash('sha256').update(this.body).digest('base64url')}"`;
    this.headers = { ...CORS, 'cache-control': CACHE_CONTROL, etag: this.etag };
  }

  /** Answers one request to {@link path}, whatever its method. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (matches(req.headers['if-none-match'], this.etag)) {
        res.writeHead(304, this.headers).end();
        return;
      }
      res
        .writeHead(200, {
          ...this.headers,
          'content-type': SERVER_CARD_MEDIA_TYPE,
          'content-length': this.body.length,
          'x-content-type-options': 'nosniff',
        })
        .end(this.body);
    } else if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS).end();
    } else {
      res.writeHead(405, { allow: ALLOW }).end();
    }
  }
}

/** `If-None-Match` against our ETag, by weak comparison (RFC 9110 §13.1.2): `*`, or a listed tag, `W/` or not. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}
