import { IntrinsicException } from '@nestjs/common';
import { McpErrorCode } from './mcp-error-codes.js';
import type { McpCallAbortedError } from './mcp-call-aborted.error.js';

/**
 * A protocol-level failure: it becomes a JSON-RPC error object, never a tool result.
 * `httpStatus` is what Streamable HTTP answers with, `httpHeaders` extra response headers it
 * sends (e.g. `Retry-After`); stdio ignores both. It is an intrinsic
 * exception so Nest's fallback filter does not log client mistakes as server errors.
 *
 * @publicApi
 */
export class McpError extends IntrinsicException {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus: number = defaultHttpStatus(code),
    readonly httpHeaders?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'McpError';
  }

  static invalidParams(message: string, data?: unknown, httpStatus?: number): McpError {
    return new McpError(McpErrorCode.InvalidParams, message, data, httpStatus);
  }

  /**
   * The resource a `resources/read` names does not exist: -32602 with `data.uri` (HTTP 400), as the
   * 2026-07-28 revision says (the old -32002 is reserved). Throw it from a resource handler.
   */
  static resourceNotFound(uri: string): McpError {
    return new McpError(McpErrorCode.InvalidParams, 'Resource not found', { uri }, 400);
  }

  static methodNotFound(method: string): McpError {
    return new McpError(McpErrorCode.MethodNotFound, `Method not found: ${method}`, undefined, 404);
  }

  static invalidRequest(message: string): McpError {
    return new McpError(McpErrorCode.InvalidRequest, message, undefined, 400);
  }

  static headerMismatch(message: string): McpError {
    return new McpError(McpErrorCode.HeaderMismatch, message, undefined, 400);
  }

  static missingCapability(requiredCapabilities: Record<string, unknown>): McpError {
    return new McpError(
      McpErrorCode.MissingRequiredClientCapability,
      'The client did not declare a capability this request needs',
      { requiredCapabilities },
      400,
    );
  }

  /**
   * @internal A call stopped before it answered, by its client (disconnect, cancellation, session
   * end, a stream left unread) or by shutdown: -32603 with `data.aborted` naming why, HTTP 503.
   * Mostly nobody reads it: the client that stopped the call is gone.
   */
  static aborted(error: McpCallAbortedError): McpError {
    return new McpError(McpErrorCode.InternalError, error.message, { aborted: error.reason }, 503);
  }

  static internal(): McpError {
    return new McpError(McpErrorCode.InternalError, 'Internal error', undefined, 500);
  }
}

function defaultHttpStatus(code: number): number {
  switch (code) {
    case McpErrorCode.MethodNotFound:
      return 404;
    case McpErrorCode.ParseError:
    case McpErrorCode.InvalidRequest:
    case McpErrorCode.HeaderMismatch:
    case McpErrorCode.MissingRequiredClientCapability:
    case McpErrorCode.UnsupportedProtocolVersion:
      return 400;
    case McpErrorCode.InternalError:
      return 500;
    default:
      // -32602 and friends: the request was read and answered; the error is in the body.
      return 200;
  }
}
