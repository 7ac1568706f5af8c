import type { InputRequest } from '../../protocol/wire-types.js';
import type { LedgerSlot } from '../request-state-payload.js';

const INPUT_REQUIRED = Symbol.for('@mocapi/nestjs/InputRequiredException');

/**
 * The internal control signal of stateless elicitation: the handler needs answers it does not have
 * yet. It unwinds the handler so the module can answer `input_required` with these
 * `inputRequests` and a requestState sealing `ledger`. It is not an error and carries no stack
 * trace (it is thrown once per round trip, on the hot path).
 *
 * Never swallow it: a broad `catch` in a handler must rethrow it, see {@link isInputRequired}.
 *
 * @publicApi
 */
export class InputRequiredException extends Error {
  /** The questions of this round, by key. Never empty. */
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  /** @internal The ledger as it stands at the unwind: what the next requestState must carry. */
  readonly ledger: readonly LedgerSlot[];

  /** @internal Thrown by the module's elicitation, never by application code. */
  constructor(inputRequests: Record<string, InputRequest>, ledger: readonly LedgerSlot[]) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(`Input required: ${Object.keys(inputRequests).join(', ')}`);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = 'InputRequiredException';
    this.inputRequests = inputRequests;
    this.ledger = ledger;
    Object.defineProperty(this, INPUT_REQUIRED, { value: true });
  }
}

/**
 * Tells the elicitation control signal apart from real failures, so a handler's broad catch can
 * let it through:
 *
 * ```ts
 * try {
 *   const answer = await this.elicitation.elicit('Which account?', (s) => s.string('account'));
 *   await this.bank.transfer(answer);
 * } catch (e) {
 *   if (isInputRequired(e)) throw e; // not a failure: the client is being asked a question
 *   return { isError: true, content: [{ type: 'text', text: String(e) }] };
 * }
 * ```
 *
 * Also recognises the signal thrown by another copy of this package (duplicated node_modules).
 *
 * @publicApi
 */
export function isInputRequired(e: unknown): e is InputRequiredException {
  return (
    e instanceof InputRequiredException ||
    (typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[INPUT_REQUIRED] === true)
  );
}
