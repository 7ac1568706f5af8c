import { McpErrorCode } from '../../protocol/mcp-error-codes.js';
import { McpError } from '../../protocol/mcp.error.js';

/**
 * On a retry the handler asked a different question at a known ordinal than it asked when the flow
 * started. The answers in the requestState no longer fit the questions, so the call cannot go on:
 * the handler broke the idempotency contract (code before the last elicit must be deterministic).
 */
export class ElicitationLedgerMismatchException extends McpError {
  /** 1-based position of the input request in the handler's run. */
  readonly ordinal: number;
  /** The key the ledger holds at that position. */
  readonly key: string;

  /** `reasked`: how many changed questions the flow had re-asked when it gave up (re-ask mode). */
  constructor(ordinal: number, key: string, reasked?: number) {
    super(
      McpErrorCode.InvalidParams,
      reasked === undefined
        ? `requestState does not match this handler: input request #${ordinal} ("${key}") differs from the one asked ` +
            'when this flow started. Under the MRTR idempotency contract the code before the last elicit re-runs on ' +
            'every round trip and must ask the same questions in the same order; keep it deterministic and move side ' +
            "effects and changing values after the final elicit, or let changed questions be asked again (whenChanged: 'reask')."
        : `Input request #${ordinal} ("${key}") changed again after ${reasked} re-asked question(s) in this flow ` +
            '(mrtr.maxReasks): the handler never asks the same thing twice, so the flow cannot complete.',
      { reason: 'ledger_mismatch', ordinal, key, ...(reasked !== undefined && { reasked }) },
      400,
    );
    this.name = 'ElicitationLedgerMismatchException';
    this.ordinal = ordinal;
    this.key = key;
  }
}
