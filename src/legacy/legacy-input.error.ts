/**
 * Why a 2025-era call could not get its input: the client cannot receive requests on this response
 * (`no_stream`), the call asked for more rounds than allowed (`too_many_rounds`), the client did not
 * answer in time (`timeout`), answered with a JSON-RPC error (`error_answer`) or with an answer
 * past the bounds (`invalid_answer`).
 */
export type LegacyInputFailure = 'no_stream' | 'too_many_rounds' | 'timeout' | 'error_answer' | 'invalid_answer';

/**
 * A 2025-era call that asked for input which could not be obtained ({@link LegacyInputFailure}).
 * Tools report it as an `isError` result, other methods as an error.
 */
export class LegacyInputError extends Error {
  constructor(
    message: string,
    readonly failure: LegacyInputFailure,
    /** The client's JSON-RPC error, when it answered with one (its code as sent, its message if any). */
    readonly answer?: { readonly code: number | string; readonly message?: string },
  ) {
    super(message);
    this.name = 'LegacyInputError';
  }
}
