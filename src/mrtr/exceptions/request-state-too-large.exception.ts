import { McpErrorCode } from '../../protocol/mcp-error-codes.js';
import { McpError } from '../../protocol/mcp.error.js';

/**
 * The answers a flow collected no longer fit in a requestState (`limits.maxRequestStateChars`): the next
 * round cannot be sealed. The client can only start the call again, with shorter answers.
 */
export class RequestStateTooLargeException extends McpError {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(
      McpErrorCode.InvalidParams,
      'The answers given in this flow are too large to carry to the next round; start the call again with shorter answers',
      { reason: 'state_too_large', size, limit },
      400,
    );
    this.name = 'RequestStateTooLargeException';
  }
}
