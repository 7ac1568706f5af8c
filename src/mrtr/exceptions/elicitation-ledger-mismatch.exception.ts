import { McpErrorCode } from '../../protocol/mcp-error-codes.js';
import { McpError } from '../../protocol/mcp.error.js';

/**
 * On a retry the handler asked a different question at a known ordinal than it asked when the flow
 * started. The answers in the requestState no longer fit the questions, so the call cannot go on:
 * the handler broke the idempotency contract (code before the last elicit must be deterministic).
 *
 * @publicApi
 */
export class ElicitationLedgerMismatchException extends McpError {
  /** 1-based position of the input request in the handler's run. */
  readonly ordinal: number;
  /** The key the ledger holds at that position. */
  readonly key: string;

  constructor(ordinal: number, key: string) {
    super(
      McpErrorCode.InvalidParams,
      `requestState does not match this handler: input request #${ordinal} ("${key}") differs from the one asked ` +
        'when this flow started. Under the MRTR idempotency contract the code before the last elicit re-runs on ' +
        'every round trip and must ask the same questions in the same order; keep it deterministic and move side ' +
        'effects and changing values after the final elicit.',
      { reason: 'ledger_mismatch', ordinal, key },
      400,
    );
    this.name = 'ElicitationLedgerMismatchException';
    this.ordinal = ordinal;
    this.key = key;
  }
}
