import type { InputResponse } from '../protocol/wire-types.js';

/**
 * What a requestState is bound to: a token is honoured only for the same method, target (tool or
 * prompt name, resource URI), arguments and caller it was issued for.
 */
export interface RequestBinding {
  method: string;
  target: string;
  /** {@link argumentsDigest} of the call's arguments. */
  argsDigest: string;
  principal: string | null;
}

/** The kinds of input request MRTR allows (elicitation, and the deprecated sampling and roots). */
export type LedgerSlotKind = 'elicitation' | 'sampling' | 'roots';

/**
 * One input request of the flow, at its ordinal (index + 1). `fingerprint` pins the question so a
 * replay asking something else is caught; `answer` is absent while the client owes it.
 */
export interface LedgerSlot {
  key: string;
  kind: LedgerSlotKind;
  fingerprint: string;
  answer?: InputResponse;
}

/** Everything a requestState carries: the server keeps nothing else between rounds. */
export interface RequestStatePayload extends RequestBinding {
  /**
   * Names the flow: made when its first round is sealed and carried unchanged by every later token
   * (two answers to one round fork the flow but keep its id). Keys exactly-once completion.
   */
  flowId: string;
  /** How many times a changed question was re-asked in this flow (bounded); absent means none. */
  reasks?: number;
  ledger: LedgerSlot[];
  /**
   * The values `ElicitationContext.once` computed in earlier rounds, in the order the handler
   * computed them (JSON values); absent means none.
   */
  memos?: unknown[];
  /** When this token was sealed (ms epoch): the per-round TTL counts from here. */
  issuedAt: number;
  /** When the flow's first round was sealed (ms epoch): the flow lifetime counts from here. */
  startedAt: number;
}

const KEY_PREFIX: Readonly<Record<LedgerSlotKind, string>> = {
  elicitation: 'elicit',
  sampling: 'sample',
  roots: 'roots',
};

/** The key an input request gets when the handler names none: `elicit-3`, `sample-1`, `roots-2`. */
export function defaultSlotKey(kind: LedgerSlotKind, ordinal: number): string {
  return `${KEY_PREFIX[kind]}-${ordinal}`;
}
