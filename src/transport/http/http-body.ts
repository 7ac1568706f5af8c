import type { IncomingMessage } from 'node:http';
import type { Logger } from '@nestjs/common';
import { parseErrorOutcome } from '../../protocol/rpc-outcome.js';
import { BodyTooLargeError, RequestAbortedError } from './read-body.js';
import type { ResponseWriter } from './response-writer.js';

/** Stands for a JSON `null` body handed over already parsed (undefined would mean "not read yet"). */
export const NULL_BODY = Symbol('null body');

/**
 * The message of a POST body that is read by now: bytes, text, or what a body parser that ran
 * before the endpoint made of it. Throws `BodyTooLargeError` past `maxBodyBytes` and `SyntaxError`
 * for what is no JSON (see {@link answerBodyError}).
 */
export function parseBody(req: IncomingMessage, body: unknown, maxBodyBytes: number): unknown {
  if (body !== undefined && !Buffer.isBuffer(body)) {
    // Parsed by a body parser that ran first: its declared size still counts, and an empty body is
    // no message (parsers turn it into {}).
    const declared = Number(req.headers['content-length']);
    if (declared > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
    if (declared === 0) throw new SyntaxError('Empty body');
    if (body === NULL_BODY) return null;
  }
  if (Buffer.isBuffer(body)) {
    if (body.length > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
    return JSON.parse(body.toString('utf8'));
  }
  if (typeof body === 'string') return JSON.parse(body);
  if (body === undefined) throw new SyntaxError('Empty body');
  return body;
}

/**
 * Answers a body that could not be read or parsed: 413, a parse error, or the client error a body
 * parser reported; nothing for a client that went away. Rethrows anything else.
 */
export function answerBodyError(writer: ResponseWriter, error: unknown, maxBodyBytes: number, logger: Logger): void {
  if (error instanceof RequestAbortedError) {
    logger.debug('A client aborted its request while sending the body');
    return;
  }
  // Our own errors, or those of a body parser that ran first (they carry statusCode and limit).
  const { statusCode, limit } = (error ?? {}) as { statusCode?: unknown; limit?: unknown };
  if (error instanceof BodyTooLargeError || statusCode === 413) {
    const bytes = typeof limit === 'number' ? limit : maxBodyBytes;
    return writer.refuse(413, `Request body too large: the limit is ${bytes} bytes`);
  }
  if (error instanceof SyntaxError || statusCode === 400) {
    const outcome = parseErrorOutcome();
    return writer.refuseWith(outcome.status, outcome.response);
  }
  if (statusCode === 415) return writer.refuse(415, 'Unsupported media type: Content-Type must be application/json');
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500)
    return writer.refuse(statusCode, 'The request body could not be read');
  throw error;
}
