// What a replay session is built from (ReplaySessionInit) and what a handler asks of it (PendingInput).
import type { ClientCapabilities, InputRequest, InputResponse } from '../protocol/wire-types.js';
import type { RequestBinding, RequestStatePayload } from './request-state-payload.js';

/** One question a handler asks: the wire request, an optional key, an optional extra check of the answer. */
export type PendingInput = {
  /** Names the request in `inputRequests`; default `elicit-<ordinal>`, `sample-<ordinal>`, `roots-<ordinal>`. */
  key?: string;
  request: InputRequest;
  /** Refuses an answer that has the right shape but is still unusable: the question is asked again. */
  validate?: (answer: InputResponse) => boolean;
  /** What a changed question at this position does; default: the session's {@link ReplaySessionInit.whenChanged}. */
  whenChanged?: ChangedQuestionPolicy;
};

/**
 * What happens when, on a retry, the handler asks something else at a position the client already
 * answered or was asked: `'fail'` (strict: `ElicitationLedgerMismatchException`) or `'reask'` (the
 * answers from that position on are dropped and the new question is asked).
 */
export type ChangedQuestionPolicy = 'fail' | 'reask';

/** What a call's replay starts from. */
export interface ReplaySessionInit {
  binding: RequestBinding;
  /** The opened (and binding-checked) requestState of a retry; absent on a first call. */
  state?: RequestStatePayload;
  /** The retry's `inputResponses`, already checked by `parseInputResponses`. */
  inputResponses?: Record<string, Record<string, unknown>>;
  clientCapabilities: ClientCapabilities;
  /** When the call started (ms epoch): the next token's `issuedAt`. */
  now: number;
  /** Default `'fail'`. */
  whenChanged?: ChangedQuestionPolicy;
  /** How many changed questions one flow may re-ask before it fails; default 3. */
  maxReasks?: number;
  /** The largest answer taken, in characters of JSON; a larger one is asked again. Default 16384. */
  maxAnswerChars?: number;
}
